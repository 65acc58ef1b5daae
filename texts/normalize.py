"""Folding of character variants, so a lookup accepts the seed's classical forms and the Japanese ones.

The seed writes its classical text in traditional forms (三傳, 八專, 遙克, 青龍) and its translation
in Japanese forms (三伝, 八専, 遥剋, 青竜); the engine and RULES use the Japanese ones. Lookups
compare ``normalize(a) == normalize(b)``: the folded string is only ever compared, never shown.
"""

from __future__ import annotations

import unicodedata

# variant → the form it folds to (mostly the Japanese 新字体). Pairs seen in the seed: a name in
# the classical line and the same name quoted in its translation (e.g. ¶95 盤龜 / ¶97 「盤亀」).
_VARIANTS: tuple[tuple[str, str], ...] = (
    # the terms of the casting rules
    ("傳", "伝"), ("將", "将"), ("專", "専"), ("克", "剋"), ("尅", "剋"), ("遙", "遥"),
    ("涉", "渉"), ("彈", "弾"), ("發", "発"), ("沖", "冲"), ("乘", "乗"), ("歲", "歳"),
    ("驛", "駅"), ("龍", "竜"), ("戰", "戦"), ("轉", "転"), ("篷", "蓬"), ("關", "関"),
    ("亂", "乱"), ("勵", "励"), ("絕", "絶"), ("祿", "禄"), ("從", "従"), ("鑄", "鋳"),
    ("醜", "丑"),  # ¶159 九丑 is RULES §7 九醜
    # the names of ¶91–¶131 (classical / translation)
    ("龜", "亀"), ("齒", "歯"), ("當", "当"), ("劍", "剣"), ("劔", "剣"), ("劒", "剣"),
    ("拔", "抜"), ("冢", "塚"), ("晝", "昼"), ("髮", "髪"), ("禮", "礼"), ("妝", "粧"),
    ("嚴", "厳"), ("戶", "戸"), ("驅", "駆"), ("燒", "焼"), ("游", "遊"), ("躶", "裸"),
    ("體", "体"), ("偷", "偸"), ("內", "内"), ("脫", "脱"), ("觀", "観"), ("藏", "蔵"),
    ("齧", "嚙"), ("懷", "懐"), ("厉", "厲"),
    # common words of the annotation
    ("會", "会"), ("與", "与"), ("應", "応"), ("對", "対"), ("實", "実"), ("虛", "虚"),
    ("處", "処"), ("靜", "静"), ("爭", "争"), ("變", "変"), ("數", "数"), ("經", "経"),
    ("舉", "挙"), ("擧", "挙"), ("獻", "献"), ("莊", "荘"), ("學", "学"), ("錄", "録"),
    ("圖", "図"), ("萬", "万"), ("壽", "寿"), ("澤", "沢"), ("歡", "歓"), ("權", "権"),
    ("釋", "釈"), ("兩", "両"), ("讀", "読"), ("聲", "声"), ("雞", "鶏"), ("竊", "窃"),
    ("盜", "盗"), ("隱", "隠"), ("顯", "顕"), ("來", "来"), ("黃", "黄"), ("廣", "広"),
    ("氣", "気"), ("濟", "済"), ("蟲", "虫"), ("驗", "験"), ("徵", "徴"), ("德", "徳"),
    ("稱", "称"), ("鬥", "闘"), ("鬭", "闘"), ("佛", "仏"), ("惡", "悪"), ("險", "険"),
    ("壞", "壊"), ("屬", "属"), ("鄉", "郷"), ("貳", "弐"), ("參", "参"), ("餘", "余"),
)
_FOLD = str.maketrans(dict(_VARIANTS))


def normalize(term: str) -> str:
    """The form ``term`` is compared in: NFKC, no white space, character variants folded.

    ``normalize("三傳") == normalize("三伝")``, ``normalize("八專") == normalize("八専")``,
    ``normalize("遙克") == normalize("遥剋")``, ``normalize("青龍") == normalize("青竜")``.
    """
    text = unicodedata.normalize("NFKC", term)
    return "".join(text.split()).translate(_FOLD)
