// The study site's search (texts/site/search.py writes the index and the fold table).
// A query is folded as the project's lookups fold text (texts/corpus/normalize.py: NFKC, no white space,
// each character's 繁/简/日 variants joined), with the table exported from Python, not re-invented;
// the index holds every entry's text already folded by Python. No framework, no request.
(function () {
  "use strict";
  var FOLD = window.LIUREN_FOLD || {};
  var INDEX = window.LIUREN_INDEX || [];
  var LIMIT = 200;
  var words = JSON.parse(document.getElementById("search-words").textContent);
  var form = document.getElementById("search");
  var input = document.getElementById("q");
  var list = document.getElementById("results");
  var count = document.getElementById("count");

  function fold(text) {
    var plain = text.normalize("NFKC").replace(/\s+/g, "");
    var out = "";
    for (var ch of plain) {
      out += Object.prototype.hasOwnProperty.call(FOLD, ch) ? FOLD[ch] : ch;
    }
    return out.toLowerCase();
  }
  window.liurenFold = fold; // the browser test compares it with Python's normalize()

  function rank(entry, needle) {
    // [kind, title, url, names (folded, "\n"-separated), text (folded)]
    var names = entry[3].split("\n");
    if (names.indexOf(needle) >= 0) return 0;
    for (var i = 0; i < names.length; i++) {
      if (names[i].indexOf(needle) === 0) return 1;
    }
    if (entry[3].indexOf(needle) >= 0) return 2;
    if (entry[4].indexOf(needle) >= 0) return 3;
    return -1;
  }

  function find(query) {
    var needle = fold(query);
    if (!needle) return [];
    var found = [];
    for (var i = 0; i < INDEX.length; i++) {
      var r = rank(INDEX[i], needle);
      if (r >= 0) found.push([r, i]);
    }
    found.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    return found.map(function (pair) { return INDEX[pair[1]]; });
  }

  function show(query) {
    list.textContent = "";
    count.textContent = "";
    if (!fold(query)) return;
    var found = find(query);
    if (!found.length) {
      count.textContent = words.none;
      return;
    }
    var shown = found.slice(0, LIMIT);
    count.textContent = words.count.replace("{count}", String(found.length)) +
      (found.length > shown.length ? words.more.replace("{shown}", String(shown.length)) : "");
    shown.forEach(function (entry) {
      var item = document.createElement("li");
      item.className = "result-" + entry[0];
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = words["kind_" + entry[0]] || entry[0];
      var link = document.createElement("a");
      link.href = entry[2];
      link.textContent = entry[1];
      item.appendChild(kind);
      item.appendChild(link);
      list.appendChild(item);
    });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    try { // file:// pages may not rewrite their address in every browser: the results show anyway
      var url = new URL(window.location.href);
      url.searchParams.set("q", input.value);
      window.history.replaceState(null, "", url.toString());
    } catch (error) { /* keep the address as it is */ }
    show(input.value);
  });
  input.addEventListener("input", function () { show(input.value); });
  var asked = new URLSearchParams(window.location.search).get("q");
  if (asked) {
    input.value = asked;
    show(asked);
  }
  document.documentElement.setAttribute("data-search-ready", String(INDEX.length));
})();
