"""Markdown → HTML for the subset docs/rules.md and docs/glossary.md are written in.

Why our own: the project has no Markdown library among its dependencies, and these docs use a
small, regular subset — ATX headings, paragraphs, ``-`` and ``1.`` lists whose items continue on
indented lines (a table may sit inside an item), pipe tables, fenced code, and inline ``**bold**``,
``*italic*``, `` `code` `` and ``[links](…)``. Anything else is shown as text, never dropped.

Headings get GitHub's anchors (the docs link to them: ``#41-伏吟-k--0-75``), so links written for
GitHub work on the site too; ``links`` rewrites the targets of links (a doc to its page).

    >>> print(to_html("## 4.1 伏吟 (k = 0; ¶75)\\n\\nSee **this** and `code`."))
    <h2 id="41-伏吟-k--0-75">4.1 伏吟 (k = 0; ¶75)</h2>
    <p>See <strong>this</strong> and <code>code</code>.</p>
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

Links = Callable[[str], str]

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^( *)([-*+]) +(.*)$")
_NUMBER = re.compile(r"^( *)(\d+)[.)] +(.*)$")
_FENCE = re.compile(r"^ *(```|~~~)")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces to hyphens.

    >>> slug("4.4 賊剋: 重審, 元首, 比用 (知一), 渉害 (¶51, ¶55, ¶59)")
    '44-賊剋-重審-元首-比用-知一-渉害-51-55-59'
    """
    kept = []
    for ch in heading.strip().lower():
        if ch in " -_":
            kept.append("-" if ch == " " else ch)
        elif unicodedata.category(ch)[0] in "LNM":
            kept.append(ch)
    return "".join(kept)


def _plain(markdown: str) -> str:
    """A heading's text as GitHub slugs it: without the inline marks."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    return re.sub(r"[`*]", "", text)


@dataclass
class _Doc:
    links: Links
    row_ids: bool
    seen: dict[str, int] = field(default_factory=dict)
    out: list[str] = field(default_factory=list)
    rows: list[tuple[str, list[str]]] = field(default_factory=list)  # (anchor, cells) of anchored rows

    def anchor(self, text: str) -> str:
        base = slug(_plain(text))
        n = self.seen.get(base, 0)
        self.seen[base] = n + 1
        return base if n == 0 else f"{base}-{n}"


_LINK = re.compile(r"\[((?:`[^`]*`|[^\]`])+)\]\(([^)\s]+)\)")


def inline(text: str, links: Links = lambda target: target) -> str:
    """One line's inline marks as HTML, everything else escaped.

    >>> inline("*School option* (`School.noble_table`): [§5](#5-the-twelve-generals-天将) <b>")
    '<em>School option</em> (<code>School.noble_table</code>): <a href="#5-the-twelve-generals-天将">§5</a> &lt;b&gt;'
    >>> inline("[`texts/seed/x.txt`](../texts/seed/x.txt)")
    '<a href="../texts/seed/x.txt"><code>texts/seed/x.txt</code></a>'
    """
    out = []
    at = 0
    for m in _LINK.finditer(text):
        out.append(_marks(text[at : m.start()]))
        out.append(f'<a href="{html.escape(links(m.group(2)))}">{_marks(m.group(1))}</a>')
        at = m.end()
    out.append(_marks(text[at:]))
    return "".join(out)


def _marks(text: str) -> str:
    """Code spans, bold and italic; the rest escaped."""
    out = []
    for part in re.split(r"(`[^`]+`)", text):
        if len(part) > 1 and part.startswith("`") and part.endswith("`"):
            out.append(f"<code>{html.escape(part[1:-1], quote=False)}</code>")
            continue
        s = html.escape(part, quote=False)
        s = re.sub(r"\*\*(\S(?:.*?\S)?)\*\*", r"<strong>\1</strong>", s)
        s = re.sub(r"(?<![*\w])\*(\S(?:.*?\S)?)\*(?![*\w])", r"<em>\1</em>", s)
        out.append(s)
    return "".join(out)


def _cells(line: str) -> list[str]:
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|"):
        line = line[:-1]
    return [c.strip() for c in line.split("|")]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _blocks(doc: _Doc, lines: list[str]) -> None:
    """Append the HTML of ``lines`` (already dedented to this block's level) to ``doc.out``."""
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if (m := _FENCE.match(line)) is not None:
            fence = m.group(1)
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(fence):
                body.append(lines[i])
                i += 1
            i += 1
            doc.out.append("<pre><code>" + html.escape("\n".join(body), quote=False) + "</code></pre>")
            continue
        if (m := _HEADING.match(line)) is not None:
            level, text = len(m.group(1)), m.group(2)
            doc.out.append(f'<h{level} id="{html.escape(doc.anchor(text))}">{inline(text, doc.links)}</h{level}>')
            i += 1
            continue
        if line.lstrip().startswith("|") and i + 1 < len(lines) and _TABLE_RULE.match(lines[i + 1]):
            i = _table(doc, lines, i)
            continue
        if _BULLET.match(line) or _NUMBER.match(line):
            i = _list(doc, lines, i)
            continue
        para = [line.strip()]
        i += 1
        while i < len(lines) and lines[i].strip() and not _starts_block(lines, i):
            para.append(lines[i].strip())
            i += 1
        doc.out.append("<p>" + inline(" ".join(para), doc.links) + "</p>")


def _starts_block(lines: list[str], i: int) -> bool:
    line = lines[i]
    return bool(
        _HEADING.match(line)
        or _BULLET.match(line)
        or _NUMBER.match(line)
        or _FENCE.match(line)
        or (line.lstrip().startswith("|") and i + 1 < len(lines) and _TABLE_RULE.match(lines[i + 1]))
    )


def _table(doc: _Doc, lines: list[str], i: int) -> int:
    head = _cells(lines[i])
    i += 2
    rows = []
    while i < len(lines) and lines[i].lstrip().startswith("|"):
        rows.append(_cells(lines[i]))
        i += 1
    out = ["<div class=\"table\"><table>", "<thead><tr>"]
    out += [f"<th scope=\"col\">{inline(c, doc.links)}</th>" for c in head]
    out.append("</tr></thead><tbody>")
    for row in rows:
        row += [""] * (len(head) - len(row))
        rid = ""
        if doc.row_ids and row[0]:
            anchor = doc.anchor("term " + _plain(row[0]))
            doc.rows.append((anchor, row))
            rid = f' id="{html.escape(anchor)}"'
        out.append(f"<tr{rid}>" + "".join(f"<td>{inline(c, doc.links)}</td>" for c in row) + "</tr>")
    out.append("</tbody></table></div>")
    doc.out.append("".join(out))
    return i


def _list(doc: _Doc, lines: list[str], i: int) -> int:
    """A list at this level: each item's first line, then every line indented past its marker or blank
    (a blank line ends the list only when what follows is not indented)."""
    first = _BULLET.match(lines[i]) or _NUMBER.match(lines[i])
    assert first is not None
    ordered = first.re is _NUMBER
    base = len(first.group(1))
    tag = "ol" if ordered else "ul"
    start = int(first.group(2)) if ordered else 1
    doc.out.append(f"<{tag}>" if start == 1 else f'<{tag} start="{start}">')
    while i < len(lines):
        m = (_NUMBER if ordered else _BULLET).match(lines[i])
        if m is None or len(m.group(1)) != base:
            break
        content = len(m.group(0)) - len(m.group(3))
        item = [m.group(3)]
        i += 1
        while i < len(lines):
            line = lines[i]
            if not line.strip():
                nxt = next((ln for ln in lines[i + 1 :] if ln.strip()), None)
                if nxt is None or _indent(nxt) < content:
                    break
                item.append("")
            elif _indent(line) >= content:
                item.append(line[content:])
            elif _indent(line) > base and not (_BULLET.match(line) or _NUMBER.match(line)):
                item.append(line.strip())  # a lazy continuation, indented less than the text
            else:
                break
            i += 1
        doc.out.append("<li>")
        if len(item) == 1 or not any(ln.strip() == "" or _starts_block(item, k) for k, ln in enumerate(item) if k):
            doc.out.append(inline(" ".join(ln.strip() for ln in item), doc.links))
        else:
            _blocks(doc, item)
        doc.out.append("</li>")
        while i < len(lines) and not lines[i].strip():
            nxt = next((ln for ln in lines[i:] if ln.strip()), None)
            if nxt is None:
                break
            nm = (_NUMBER if ordered else _BULLET).match(nxt)
            if nm is None or len(nm.group(1)) != base:
                break
            i += 1
    doc.out.append(f"</{tag}>")
    return i


def to_html(markdown: str, links: Links = lambda target: target) -> str:
    """The document as HTML fragments, one block a line; ``links`` maps each link target."""
    return render(markdown, links)[0]


def render(
    markdown: str, links: Links = lambda target: target, *, row_ids: bool = False
) -> tuple[str, list[tuple[str, list[str]]]]:
    """The document as HTML, and with ``row_ids`` every table row's anchor (named for its first
    cell, ``term-…``) with its cells (as Markdown): the glossary's terms, for the search."""
    doc = _Doc(links, row_ids)
    _blocks(doc, markdown.splitlines())
    return "\n".join(doc.out), doc.rows
