"""One-off drafter for texts/corpus.toml (the TOML file is the source of truth, reviewed by hand).

Each seed paragraph is cut into consecutive units by *end markers*: a unit's text runs from where
the previous unit ended to the end of the first occurrence of its marker (``None`` = to the end
of the line). Cutting the original and its translation the same way keeps every unit verbatim
and leaves no gap, by construction. Run once, then review and edit the TOML directly:

    python tools/build_corpus.py > texts/corpus.toml
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

SEED = Path(__file__).resolve().parent.parent / "texts" / "seed" / "000_bc2579445fc12f06.txt"

BROKEN = "\ufffd"  # what the seed has where a character was lost
ESCAPED_BROKEN = "\\uFFFD"  # how a TOML string writes it

# A marker: end of the unit's span; "" = empty span (translation-only note); None = rest of line.
Marker = str | None


@dataclass
class Spec:
    id: str
    kind: str
    keys: list[str]
    orig_end: Marker
    trans_end: Marker
    general: str | None = None
    branches: list[str] = field(default_factory=list)
    excludes: list[str] = field(default_factory=list)
    names_by_branch: list[tuple[str, str]] = field(default_factory=list)
    unreachable: list[tuple[str, str]] = field(default_factory=list)


def whole(id: str, kind: str, keys: list[str], general: str | None = None) -> Spec:
    return Spec(id, kind, keys, None, None, general)


FRONT: list[tuple[str, int, int | None, list[str]]] = [
    ("front.title", 1, None, ["大六壬指南"]),
    ("front.authors", 3, 5, ["陳公獻", "程起鸞", "莊公遠"]),
    ("front.contents", 7, 9, ["目錄"]),
    ("front.周元曙序.1", 11, 13, ["序"]),
    ("front.周元曙序.2", 15, 17, ["序"]),
    ("front.周元曙序.3", 19, 21, ["序"]),
    ("front.周元曙序.題", 23, 25, ["序"]),
    ("front.程起鸞序.1", 27, 29, ["序"]),
    ("front.程起鸞序.2", 31, 33, ["序"]),
    ("front.程起鸞序.題", 35, 37, ["序"]),
]

M, P, PR, G = "method", "pattern", "procedure", "general"

BODY: dict[int, list[Spec]] = {
    39: [whole("procedure.日辰", PR, ["日辰", "寄宮", "地盤"])],
    43: [whole("procedure.月将", PR, ["月将", "天盤"])],
    47: [whole("procedure.四課", PR, ["四課"])],
    51: [
        Spec("method.賊剋", M, ["賊剋"], "則以四課上下審之。", "審視することである。"),
        Spec("method.重審", M, ["重審"], "名曰重審課；", "課名を「重審課」という。"),
        Spec("method.元首", M, ["元首"], "名曰元首課。", "課名を「元首課」という。"),
        Spec("method.重審元首", M, ["重審", "元首"], "首出庶物之象也。", "の気象をもつ意である。"),
        whole("procedure.相因", PR, ["相因"]),
    ],
    55: [
        Spec("method.比用渉害", M, ["比用", "渉害"], "下克上曰賊。", "「賊」という。"),
        whole("method.比用", M, ["比用"]),
    ],
    59: [
        Spec("method.知一", M, ["知一", "比用"], "陰知用一陰爻而不知有陽也。", "また知一課と名づける。"),
        Spec("method.渉害", M, ["渉害"], "則名之曰涉害課，", "これを「渉害課」という。"),
        Spec("method.見機", M, ["見機"], "明若保身之義也。", "明哲保身の用意である。"),
        Spec("method.察微", M, ["察微"], "履霜堅冰至之意也。", "「履霜堅冰至」の意である。"),
        whole("method.渉害.中末", M, ["渉害"]),
    ],
    63: [
        Spec("method.遙剋", M, ["遙剋"], "相對較之。", "それと対照比較する。"),
        Spec("method.蒿矢", M, ["蒿矢"], "雖克而猶蒿而已。", "一本の蒿杆の箭にすぎない。"),
        Spec("method.弾射", M, ["弾射"], "取象於彈丸而已。", "弾丸に象を取るほかないからである。"),
        whole("method.遙剋.比用", M, ["遙剋"]),
    ],
    67: [whole("method.昴星", M, ["昴星"])],
    71: [whole("method.別責", M, ["別責", "不備"])],
    75: [
        Spec("method.伏吟反吟", M, ["伏吟", "反吟"], "伏反以刑、沖為定。", "刑と冲によって三伝を定める。"),
        Spec("method.伏吟", M, ["伏吟"], "末傳以沖神為之矣。", "末伝は相冲の神に改める。"),
        whole("procedure.三刑", PR, ["刑", "自刑"]),
    ],
    79: [
        Spec("method.反吟", M, ["反吟"], "三傳初末相同而沖乎中傳。", "中伝と相冲する。"),
        whole("method.無依", M, ["無依", "無親", "井欄"]),
    ],
    83: [whole("method.八専", M, ["八専"])],
    87: [whole("general.貴人", G, ["貴人", "天乙"], general="貴人")],
    135: [whole("general.天空", G, ["天空"], general="天空")],
    139: [
        Spec("pattern.卦名", P, ["卦名"], "必察卦名之意。", "審察しなければならない。"),
        whole("pattern.元首重審", P, ["元首", "重審"]),
    ],
    143: [
        Spec("pattern.知一", P, ["知一", "比用"], "唯一得則永得一也。", "終始この一つを守る。"),
        Spec("pattern.見機", P, ["見機"], "難密而易失也。", "失いやすいということである。"),
        Spec("pattern.遙剋", P, ["遙剋", "蒿矢", "弾射"], "觀蒿與彈之意自明。", "見れば明らかである。"),
        whole("pattern.別責", P, ["別責"]),
    ],
    147: [
        Spec("pattern.冬蛇掩目", P, ["冬蛇掩目"], "不過虛凶不成實害也。", "実害を成さない。"),
        Spec("pattern.虎視転蓬", P, ["虎視転蓬"], "出外必稽留不回。", "帰りにくい。"),
        Spec("pattern.伏吟", P, ["伏吟", "自任", "自信"], "貴逆支後一位尋之。", "後一位に尋ねる。"),
        whole("pattern.反吟", P, ["反吟", "無依"]),
    ],
    151: [
        Spec("pattern.八専", P, ["八専", "帷簿"], "多淫佚之意也。", "多く淫佚の意を含む。"),
        Spec("pattern.龍首", P, ["龍首"], "常人利見大人。", "謁見するに利する。"),
        whole("pattern.龍戦", P, ["龍戦"]),
    ],
    155: [
        Spec("pattern.官爵", P, ["官爵"], "反搖動不寧。", "不安を主る。"),
        Spec("pattern.富貴", P, ["富貴"], "君子常人皆吉。", "平常の人も吉である。"),
        Spec("pattern.斫輪鋳印", P, ["斫輪", "鋳印"], "有官非口舌。", "口舌を招く。"),
        whole("pattern.高蓋乗軒", P, ["高蓋乗軒"]),
    ],
    159: [
        Spec("pattern.蕪淫", P, ["蕪淫"], "主夫妻異心。", "異心を懐くことを主る。"),
        Spec("pattern.淫女", P, ["淫女"], "主淫奔不止。", "淫奔が止まないことを主る。"),
        Spec("pattern.三交", P, ["三交"], "異日不利。", "後日必ず利がない。"),
        whole("pattern.九醜", P, ["九醜"]),
    ],
    163: [
        Spec("pattern.斬関", P, ["斬関"], "而奔波不定。", "四方に奔走することを主る。"),
        Spec("pattern.遊子", P, ["遊子"], "奔波不免。", "奔波は免れないことを主る。"),
        Spec("pattern.天獄", P, ["天獄"], "刑罰及身。", "刑罰が身に加わることを主る。"),
        whole("pattern.天網", P, ["天網"]),
    ],
    167: [
        Spec("pattern.玄胎", P, ["玄胎"], "或為胎孕。", "そのまま胎孕である。"),
        Spec("pattern.贅婿", P, ["贅婿"], "而相傍。", "傍靠して生きなければならない。"),
        Spec("pattern.無禄", P, ["無禄"], "最凶之占也。", "最も凶の占である。"),
        whole("pattern.絶嗣", P, ["絶嗣"]),
    ],
    171: [
        Spec("pattern.励徳", P, ["励徳"], "不自安而搖動也。", "揺動する。"),
        Spec("pattern.乱首", P, ["乱首"], "悖逆之象也。", "悖逆の象である。"),
        Spec("pattern.稼穡", P, ["稼穡"], "故自微而至著。", "微から漸く著となる。"),
        whole("pattern.曲直", P, ["曲直"]),
    ],
    175: [
        Spec("pattern.従革", P, ["従革"], "主刑傷之凶也。", "刑傷の凶をも主る。"),
        Spec("pattern.炎上", P, ["炎上"], "有相親傍之義焉。", "攀附・親近の義を帯びる。"),
        whole("pattern.潤下", P, ["潤下"]),
    ],
}

# The name lines ¶91–¶131: (general, opening markers or None, [(orig_end, trans_end, branches, names)]).
# branches/names empty = read from the "（子）" markers and the translation's 臨むのを「」 quotes.
Clause = tuple[Marker, Marker, str, str]
GENERAL_LINES: dict[int, tuple[str, tuple[Marker, Marker] | None, list[Clause]]] = {
    91: ("貴人", None, [
        ("必囑事於童僕，", "事を童僕に託して行うのが宜しい。", "", ""),
        ("宜投書於公府。", "官府に文書を投げるのが宜しい。", "", ""),
        ("可謁見於家，", "門を叩いて人の家に求見できる。", "", ""),
        ("宜訴詞於路。", "道路上で状を訴えるのが宜しい。", "", ""),
        ("君喜臣歡，", "上下相得の象である。", "巳午", ""),  # ¶91 巳午受貢
        ("下憂上辱。", "在上の者は辱められることを主る。", "辰戌", ""),  # ¶91 辰戌懷怒
        ("有求干之榮，", "栄顕を獲る機がある。", "", ""),
        ("有酒筵之娛。", "楽しみがあることを主る。", "", ""),
        ("坦然安居，", "坦然として安居する。", "", ""),
        (None, None, "", ""),
    ]),
    95: ("騰蛇", ("（不加戌亥）", "この断をしない。"), [
        ("無憂無患，", "憂も患もない。", "", ""),
        ("禍消福善。", "福善が臨む。", "", ""),
        ("禍福兩途，", "禍福はともにあり得る。", "", ""),
        ("休祥不辯。", "分かちがたい。", "", ""),
        ("鋒不可砍，", "刀鋒がそれを伐てない。", "", ""),
        ("從心無患。", "憂患なしとできる。", "", ""),
        ("總是成災，", "釀成することを主る。", "", ""),
        (None, None, "", ""),
    ]),
    99: ("朱雀", ("（不加酉戌亥子）", "文書とは論じない。"), [
        ("自傷難逃，", "脱しがたい。", "", ""),
        ("動靜得昌。", "昌順である。", "", ""),
        ("遲滯沉溺，", "進まないことを主る。", "", ""),
        ("乖錯遺忘。", "丟失を主る。", "", ""),
        ("怪異經官語訟，", "訴訟を起こすことを主る。", "", ""),
        ("且在雞窗。", "一路――に落ちる。", "", ""),
        ("夜噪（酉），", "「夜噪」というからである。", "", ""),
        (None, None, "", ""),
    ]),
    103: ("六合", ("（不加申酉戌亥子）", "佳会とは論じない。"), [
        ("和同，", "和睦・同心を主る。", "", ""),
        ("驚悸。", "安らかでないことを主る。", "", ""),
        ("無禮之事端，", "無礼の事の始まりである。", "", ""),
        ("不明之囚地。", "牢獄の地である。", "", ""),
        ("從媒妁而成歡，", "歓好を成すことを主る。", "", ""),
        ("因妄冒而加罪。", "罪責を招くことを主る。", "", ""),
        ("併為已就之占，", "占に属する。", "", ""),
        (None, None, "", ""),
    ]),
    107: ("勾陳", ("必然鬥訟爭官，", "争奪する事がある。"), [
        ("被辱暗遭毒害。", "加害を受けることを主る。", "", ""),
        ("宜上書，", "上書して事を言うのに宜しい。", "", ""),
        ("有封拜。", "喜びがあることを主る。", "", ""),
        ("家不和，", "家宅が和せずことを主る。", "", ""),
        ("身遭責。", "責罰を受けることを主る。", "", ""),
        ("有獄吏以勾連，", "案を問う。", "", ""),
        ("因他人而迷厲。", "苛厉に遭う。", "", ""),
        ("往來詞訟稽留，", "結がれないことを主る。", "", ""),
        (None, None, "", ""),
    ]),
    111: ("青龍", ("雖主亨通，", "見なければならない。"), [
        ("所謀未遂。", "願いの如くならない。", "", ""),
        ("小人爭財，", "相争うことを主る。", "", ""),
        ("君子欲動。", "挙動をなすことを主る。", "", ""),
        ("利以經營，", "利を謀るに利がある。", "", ""),
        ("宜乎安靜。", "守成するのが宜しい。", "", ""),
        ("不測之憂，", "不測の憂を生ずることを主る。", "", ""),
        (None, None, "", ""),
    ]),
    115: ("天后", ("陰私之婦。", "類神は婦人である。"), [
        ("動止多宜，", "いずれも宜しい。", "", ""),
        ("好淫未足。", "足るを知らないことを主る。", "", ""),
        ("非嘆息而呻吟，", "臥病して呻吟する。", "", ""),
        ("不悲哭而羞辱。", "羞辱を蒙るかである。", "", ""),
        ("修容（申），", "「修容」というからである。", "", ""),
        (None, None, "", ""),
    ]),
    119: ("太陰", ("禍福其來不明。", "不明白にやって来る。"), [
        ("妾婦相侮，", "欺侮し合うことを主る。", "", ""),
        ("尊貴相蒙。", "蒙蔽されることを主る。", "", ""),
        ("當憂怪異，", "憂うべきである。", "", ""),
        ("宜備乖事。", "予防するのが宜しい。", "", ""),
        ("財物文書暗動，", "暗裡に変動することを主る。", "", ""),
        ("盜竊口舌憂驚。", "驚恐を主る。", "", ""),
        ("雅稱士人之政，", "操守に合う。", "", ""),
        (None, None, "", ""),
    ]),
    123: ("玄武", ("玄武遺亡陰賊走失。", "類神とする。"), [
        ("有畏捕之心，", "畏れる心をもつ。", "", ""),
        ("有干求之意。", "干求する意をもつ。", "", ""),
        ("入林難尋，", "尋ねにくい。", "寅", ""),  # ¶123 愛寅
        ("失路自制。", "自ら收斂する。", "辰", ""),  # ¶123 愁辰
        ("家有盜賊，", "窺い伺うことを主る。", "", ""),
        ("虛獲驚悸。", "実在の損失はない。", "", ""),
        ("深邃之鄉，", "身を蔵す。", "", ""),
        ("酒食之地。", "敗露する。", "", ""),
        ("攻之而反傷，", "かえって彼に傷られる。", "", ""),
        (None, None, "", ""),
    ]),
    127: ("太常", ("酒食相奉。", "類神でもある。"), [
        ("必值決罰，", "判決に遇う。", "", ""),
        ("須遭讒佞。", "防がねばならない。", "", ""),
        ("財物遭傷，", "損ずることを主る。", "", ""),
        ("尊卑起訟。", "興ることを主る。", "", ""),
        ("不轉職而遷官，", "昇遷できる。", "", ""),
        ("不徵召而喜慶。", "喜慶がある。", "", ""),
        ("有改拜之封，", "封命がある。", "", ""),
        ("有遷官之命。", "任命がある。", "", ""),
        ("雖喜而必下憎，", "憎悪される。", "亥", "徵召"),  # ¶127 亥為徵召
        (None, None, "酉", "券書"),  # ¶127 酉作券書
    ]),
    131: ("白虎", ("官災病喪。", "喪亡を主る。"), [
        ("音書不至，", "届かない。", "", ""),
        ("禍害反昌。", "熾盛になる。", "", ""),
        ("傷折人口，", "傷損することを主る。", "", ""),
        ("損壞牛羊。", "損壊することを主る。", "", ""),
        ("掌生殺之權，", "執掌する。", "", ""),
        ("脫桎梏之殃。", "脱し去ることができる。", "", ""),
        ("可持其喜信，", "喜訊であることを主る。", "", ""),
        (None, None, "", ""),
    ]),
}

# Comments written above a unit in the TOML: where the seed is uneven, say so next to the data.
COMMENTS: dict[str, str] = {
    "method.伏吟反吟": "¶75 is one verse for 伏吟 and 反吟. 自任/自信 are named only in ¶147 (pattern.伏吟);\n"
    "# 綴瑕 (docs/rules.md §4) is not in the seed at all.",
    "general.貴人": "¶91 has no opening line for 貴人: its own line is ¶87 天乙居中 (天乙乃貴人也).",
    "general.貴人.note": "¶93 opens with a sentence of the translation's own; it translates no classical words.",
    "general.騰蛇": "（不加…）: the branches where the opening's sense does not hold (the names still do).",
    "general.玄武.寅": "¶123 names 寅 and 辰 inside the verse (愛寅, 愁辰), without a （寅） marker.",
    "general.太常.亥": "¶127 亥為徵召, 酉作券書: named without markers; ¶129 quotes no name for them.",
    "general.白虎.子": "¶131 has no line for 白虎 on 巳 or 亥.",
    "general.天空": "¶135: 天空 has no name line per branch.",
    "pattern.卦名": "¶139–¶175, the named patterns (課体). 察微 and 昴星 have no verse here: 昴星 appears\n"
    "# only as the condition of 冬蛇掩目 and 虎視転蓬 (¶147).",
}

NAMED_ON = re.compile(r"([子丑寅卯辰巳午未申酉戌亥](?:・[子丑寅卯辰巳午未申酉戌亥])*)に臨むのを「([^」]+)」")
# name lines whose translation quotes no name: (general, branch) → the name the original gives
UNQUOTED_NAMES = {("太常", "亥"): "徵召", ("太常", "酉"): "券書"}  # ¶127 亥為徵召, 酉作券書


def names_by_branch(spec: Spec, translation: str) -> list[tuple[str, str]]:
    """(branch, name) for each branch of a name line, from the translation's 「Xに臨むのを「name」」."""
    assert spec.general is not None
    found = {b: name for bs, name in NAMED_ON.findall(translation) for b in bs.split("・")}
    for (g, b), name in UNQUOTED_NAMES.items():
        if g == spec.general and b in spec.branches:
            found[b] = name
    missing = [b for b in spec.branches if b not in found]
    if missing:
        raise SystemExit(f"{spec.id}: no name for {missing} in {translation!r}")
    return [(b, found[b]) for b in spec.branches]


BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
ORDER = ("貴人", "騰蛇", "朱雀", "六合", "勾陳", "青龍", "天空", "白虎", "太常", "玄武", "太陰", "天后")
CLOCKWISE = "亥子丑寅卯辰"  # ¶87: 貴人 on these 地盤 branches leads 順, on 巳午未申酉戌 逆 (docs/rules.md §5)
EXCLUDES_AT = {"騰蛇": (95, "戌亥"), "朱雀": (99, "酉戌亥子"), "六合": (103, "申酉戌亥子")}


def reachable_grounds(general: str) -> set[int]:
    """The 地盤 branches (indices) ``general`` can stand on, over every place 貴人 can take."""
    i = ORDER.index(general)
    return {(p + i if BRANCHES[p] in CLOCKWISE else p - i) % 12 for p in range(12)}


def unreachable_reason(general: str, branch: str) -> str:
    i = ORDER.index(general)
    grounds = reachable_grounds(general)
    start = next(p for p in range(12) if p in grounds and (p - 1) % 12 not in grounds)
    run = "".join(BRANCHES[(start + k) % 12] for k in range(len(grounds)))
    reason = (
        f"no chart puts {general} on {branch}: under ¶87's 順逆 rule (docs/rules.md §5) 貴人 on 亥子丑寅卯辰 leads "
        f"the generals clockwise and on 巳午未申酉戌 counter-clockwise, so {general}, {i} "
        f"place{'s' if i > 1 else ''} from 貴人, stands only on {run}"
    )
    if general in EXCLUDES_AT:
        line, excludes = EXCLUDES_AT[general]
        said = "names it" if branch in excludes else "leaves it out, but the rule excludes it all the same"
        reason += f" (¶{line}'s （不加{excludes}） {said})"
    return reason


# Names a lookup answers to that the seed does not give the unit as its name.
ALIASES = {"general.玄武.寅": ["入林"], "general.玄武.辰": ["失路"]}

# Editorial notes (texts/corpus/units.py's docstring says what each kind promises). Never part of the
# verbatim text: the display form marks them.
NOTES: dict[str, list[dict[str, str]]] = {
    "general.貴人": [{
        "kind": "emendation", "field": "translation", "at": "\ufffd\ufffd", "read": "。",
        "says": "¶89 ends in U+FFFD where one character was lost. The sentence is complete before it "
        "and every other paragraph of the translation ends with 。: read 。.",
    }],
    "general.貴人.辰戌": [{
        "kind": "emendation", "field": "translation", "at": "\ufffd\ufffd\ufffd", "read": "。",
        "says": "¶93: one character lost (three U+FFFD, the three bytes of one character) between "
        "怒を含む and 在下の者は, where one sentence ends and the next (¶91 下憂上辱) begins: read 。 "
        "(a 、 would fit as well).",
    }],
    "general.玄武.申戌": [{
        "kind": "emendation", "field": "translation", "at": "\ufffd\ufffd\ufffd", "read": "す",
        "says": "¶125 賊が〔?〕でに勢いを失い renders ¶123 賊失勢 ('the thief has lost his power'); "
        "only すでに (既に) fits before でに: read す.",
    }],
    "pattern.天獄": [{
        "kind": "emendation", "field": "translation", "at": "\ufffd\ufffd", "read": "憂",
        "says": "¶165 刑罰・罪責の〔?〕がある renders ¶163 天獄憂刑罪責 ('天獄: worry over punishment "
        "and blame'); the character the verse gives is 憂: read 憂.",
    }],
    "method.昴星": [{
        "kind": "sic", "field": "translation", "at": "遥剣", "read": "遥剋",
        "says": "¶69 writes 遥剣 ('sword') for 遥剋: ¶67 has 況無遙克 ('let alone without even a 遙克').",
    }],
    "method.伏吟": [{
        "kind": "sic", "field": "translation", "at": "剋される", "read": "刑する",
        "says": "¶77 renders 刑 as 剋: ¶75 仍取刑為末傳 takes as 末伝 the branch the 中伝 punishes (刑, "
        "the three 刑 ¶75 lists), while ¶77 says 剋される ('is overcome').",
    }],
    "general.玄武.寅": [{
        "kind": "alias", "field": "original", "at": "入林難尋", "read": "入林",
        "says": "¶123 愛寅兮入林難尋: the verse's own 入林 ('into the forest') is the tradition's name for "
        "玄武 on 寅; the seed names the pair 愛寅 (¶125 「愛寅」). 騰蛇 on 未 is also 入林 (¶95).",
    }],
    "general.玄武.辰": [{
        "kind": "alias", "field": "original", "at": "失路自制", "read": "失路",
        "says": "¶123 愁辰兮失路自制: the verse's own 失路 ('losing the road') is the tradition's name for "
        "玄武 on 辰; the seed names the pair 愁辰 (¶125 「愁辰」).",
    }],
}

HEADER = [
    "# 《心印賦》 (大六壬指南 巻一) cut into units. Source of truth: edit by hand, keep verbatim.",
    "# Checked by tests/test_texts.py and tests/test_corpus_*.py against texts/seed/000_bc2579445fc12f06.txt.",
    "#",
    "# Fields of a [[unit]] (texts/corpus/units.py's docstring is the full account):",
    "#   id, kind, keys           the unit's id, its kind, the names a lookup answers to",
    "#   lines                    [original's seed line, translation's seed line]; one when the other is empty",
    "#   original, translation    verbatim spans of the seed; never edited (a U+FFFD stays a U+FFFD)",
    "#   general, branches        a general unit's general; a name line's 地盤 branch(es)",
    "#   excludes                 an opening's （不加…） branches",
    "#   names_by_branch          a name line's name on each of its branches (六合 升堂 on 午, 入室 on 卯)",
    "#   aliases                  names the tradition gives that the seed does not (each with an alias note)",
    "#   [unit.unreachable]       branch = reason: where no cast chart puts the general (¶87's 順逆 rule)",
    "#   [[unit.notes]]           kind (emendation | sic | alias), field (original | translation), at (the",
    "#                            seed's words, verbatim), read (what the editor reads there), says (why).",
    "#                            emendation: at = U+FFFD run, shown as 〔read〕; sic: shown as at〔ママ〕.",
]

BRANCH_MARK = re.compile(r"（([子丑寅卯辰巳午未申酉戌亥]+)）")
QUOTE = re.compile(r"臨むのを「([^」]+)」")  # the name, not other quotes (「鶏窓」)


def cut(text: str, start: int, marker: Marker, where: str) -> int:
    """End index of the span from ``start`` that ends after ``marker``."""
    if marker is None:
        return len(text)
    if marker == "":
        return start
    i = text.find(marker, start)
    if i < 0:
        raise SystemExit(f"{where}: marker {marker!r} not found after offset {start}")
    return i + len(marker)


def general_specs(line: int) -> list[Spec]:
    general, opening, clauses = GENERAL_LINES[line]
    specs: list[Spec] = []
    if opening is None:  # ¶93 opens with a sentence of the translator's own, before 解紛
        specs.append(Spec(f"general.{general}.note", G, [general], "", "それぞれ一類の事を主る。", general))
    else:
        specs.append(Spec(f"general.{general}", G, [general], opening[0], opening[1], general))
    for orig_end, trans_end, branches, names in clauses:
        s = Spec("", "general-on-branch", [], orig_end, trans_end, general, list(branches))
        s.keys = [names] if names else []
        specs.append(s)
    return specs


def toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def toml_list(xs: list[str] | list[int]) -> str:
    return "[" + ", ".join(toml_str(x) if isinstance(x, str) else str(x) for x in xs) + "]"


def emit(
    out: list[str], spec: Spec, lines: list[int], original: str, translation: str
) -> None:
    if spec.id in COMMENTS:
        out.append(f"# {COMMENTS[spec.id]}")
    out.append("[[unit]]")
    out.append(f"id = {toml_str(spec.id)}")
    out.append(f"kind = {toml_str(spec.kind)}")
    out.append(f"lines = {toml_list(lines)}")
    out.append(f"keys = {toml_list(spec.keys)}")
    if spec.general:
        out.append(f"general = {toml_str(spec.general)}")
    if spec.branches:
        out.append(f"branches = {toml_list(spec.branches)}")
    if spec.excludes:
        out.append(f"excludes = {toml_list(spec.excludes)}")
    if spec.names_by_branch:
        table = ", ".join(f"{toml_str(b)} = {toml_str(n)}" for b, n in spec.names_by_branch)
        out.append(f"names_by_branch = {{ {table} }}")
    if spec.id in ALIASES:
        out.append(f"aliases = {toml_list(ALIASES[spec.id])}")
    out.append(f"original = {toml_str(original)}")
    out.append(f"translation = {toml_str(translation)}")
    if spec.unreachable:
        out.append("[unit.unreachable]")
        out.extend(f"{toml_str(b)} = {toml_str(reason)}" for b, reason in spec.unreachable)
    for note in NOTES.get(spec.id, []):
        out.append("[[unit.notes]]")
        # a lost character is written as the escape \uFFFD: visible in the file, the same string once parsed
        out.extend(f"{name} = {toml_str(value).replace(BROKEN, ESCAPED_BROKEN)}" for name, value in note.items())
    out.append("")


def main() -> None:
    seed = SEED.read_text(encoding="utf-8").split("\n")
    text = {n: seed[n - 1] for n in range(1, len(seed) + 1)}
    out = [*HEADER, ""]
    for uid, o, t, keys in FRONT:
        spec = Spec(uid, "front-matter", keys, None, None)
        emit(out, spec, [o] if t is None else [o, t], text[o], "" if t is None else text[t])
    for line in range(39, 176, 4):
        specs = general_specs(line) if line in GENERAL_LINES else BODY[line]
        orig, trans = text[line], text[line + 2]
        oi = ti = 0
        for spec in specs:
            oj = cut(orig, oi, spec.orig_end, f"¶{line} {spec.id}")
            tj = cut(trans, ti, spec.trans_end, f"¶{line + 2} {spec.id}")
            o_seg, t_seg = orig[oi:oj], trans[ti:tj]
            if spec.kind == "general-on-branch":
                assert spec.general is not None
                if not spec.branches:
                    spec.branches = list("".join(BRANCH_MARK.findall(o_seg)))
                if not spec.keys:
                    spec.keys = QUOTE.findall(t_seg)
                spec.id = f"general.{spec.general}.{''.join(spec.branches)}"
                spec.names_by_branch = names_by_branch(spec, t_seg)
                spec.keys = [spec.general, *spec.branches, *spec.keys]
                spec.unreachable = [(b, unreachable_reason(spec.general, b)) for b in spec.branches
                                    if BRANCHES.index(b) not in reachable_grounds(spec.general)]
            elif spec.kind == "general" and "（不加" in o_seg:
                spec.excludes = list(o_seg[o_seg.index("（不加") + 3 : o_seg.index("）", o_seg.index("（不加"))])
            lines = [n for n, seg in ((line, o_seg), (line + 2, t_seg)) if seg]
            emit(out, spec, lines, o_seg, t_seg)
            oi, ti = oj, tj
        if oi != len(orig) or ti != len(trans):
            raise SystemExit(f"¶{line}: text left over: {orig[oi:]!r} / {trans[ti:]!r}")
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
