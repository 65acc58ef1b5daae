"""What the seed says of each matter (docs/rules.md §9.2), as literal tables: the 類神 in order with the words
that ground them, the other generals' lines that speak of the matter, its patterns and its [伝統] 六親.

Every ground and mention names a corpus unit by id; tests/test_matters.py checks that each exists,
that each ground's ``words`` are the seed's (in the unit's original, or its translation for a
〔訳〕 ground), and that the branches marked † here are exactly those the corpus flags unreachable.
texts/matters/values.py applies these tables (R1–R10).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.symbols import Branch
from engine.terms import General, Kin, PatternName
from texts.matters.recognise import Matter

G = General
P = PatternName
B = Branch


@dataclass(frozen=True, slots=True)
class Ground:
    """Words of the seed that ground a 類神: ``unit`` holds them verbatim, in its original, or (when
    ``translated``, shown 〔訳〕) only in the seed's Japanese translation."""

    unit: str
    words: str
    translated: bool = False


@dataclass(frozen=True, slots=True)
class Spirit:
    """A 類神 of a matter with its grounds. ``opening``: its opening line is quoted as the ground
    (R1); False for 貴人, whose opening (¶87) names no matter, so its citations stand instead."""

    general: General
    grounds: tuple[Ground, ...]
    opening: bool = True


@dataclass(frozen=True, slots=True)
class Mention:
    """Another general's name line that speaks of the matter: quoted when ``general`` stands on one of
    ``branches`` (R7). ``dagger``: those of them no cast chart reaches (docs/rules.md §7), kept for completeness."""

    general: General
    unit: str
    branches: tuple[Branch, ...]
    dagger: tuple[Branch, ...] = ()


@dataclass(frozen=True, slots=True)
class MatterRules:
    """One row of §9.2. ``patterns``: each group of names shares one verse (八専 and 帷簿)."""

    matter: Matter
    spirits: tuple[Spirit, ...]
    mentions: tuple[Mention, ...] = ()
    patterns: tuple[tuple[PatternName, ...], ...] = ()
    kin: Kin | None = None  # [伝統]: the seed never names a 六親 (§9.1)
    day_and_branch: bool = False  # R5 for marriage: ¶159 「夫，干也；妻，支也」
    hidden_search: bool = False  # R8: with 伏吟, where the lost is sought (¶147)


def _g(unit: str, words: str) -> Ground:
    return Ground(unit, words)


def _t(unit: str, words: str) -> Ground:
    return Ground(unit, words, translated=True)


TABLE: tuple[MatterRules, ...] = (
    MatterRules(
        Matter.petition,
        (
            Spirit(
                G.貴人,
                (
                    _g("general.貴人.丑", "升堂（丑）宜投書於公府"),  # ¶91
                    _g("general.貴人.寅", "憑几（寅）可謁見於家"),  # ¶91
                    _g("general.貴人.申", "移途（申）則有求干之榮"),  # ¶91
                    _g("pattern.龍首", "常人利見大人"),  # ¶151 龍首 (貴人發用)
                    _g("pattern.富貴", "貴人發用主增財喜慶"),  # ¶155 富貴
                ),
                opening=False,
            ),
            Spirit(G.天空, (_g("general.天空", "天空奏書之神"), _g("general.天空", "唯執書以奏"))),  # ¶135
        ),
        mentions=(Mention(G.太陰, "general.太陰.丑", (B.丑,)),),  # ¶119 入內（丑）則尊貴相蒙
        patterns=((P.龍首,), (P.富貴,), (P.励徳,)),  # ¶151, ¶155, ¶171
    ),
    MatterRules(
        Matter.fright,
        (
            Spirit(G.騰蛇, (_g("general.騰蛇", "但見騰蛇，驚疑擾亂"), _t("general.騰蛇", "発用するのを見れば"))),
        ),  # ¶95/¶97
        mentions=(
            Mention(G.朱雀, "general.朱雀.申午", (B.申, B.午)),  # ¶99 厲嘴 銜符 怪異經官語訟
            Mention(G.六合, "general.六合.巳", (B.巳,)),  # ¶103 不協（巳）驚悸
            Mention(G.天后, "general.天后.丑未", (B.丑, B.未)),  # ¶115 悚懼驚惶 … 偷窺 沐浴
            Mention(G.太陰, "general.太陰.戌", (B.戌,)),  # ¶119 被察（戌）當憂怪異
            Mention(G.太陰, "general.太陰.亥巳", (B.亥,)),  # ¶119 裸形（亥）… 盜竊口舌憂驚
            Mention(G.玄武, "general.玄武.巳", (B.巳,), (B.巳,)),  # ¶123 反顧（巳†）虛獲驚悸
        ),
        patterns=((P.冬蛇掩目,),),  # ¶147 虛驚而終不傷人
    ),
    MatterRules(
        Matter.documents,
        (
            Spirit(
                G.朱雀,
                (
                    _g("general.朱雀", "朱雀南方文書可防"),  # ¶99
                    _g("general.朱雀.巳", "音信至都緣晝翔（巳）"),  # ¶99
                    _t("general.朱雀", "音信"),  # ¶101
                    _t("general.朱雀", "口舌・是非を防がねばならない"),  # ¶101
                    _t("general.朱雀.未亥", "科第功名の一路"),  # ¶101 glosses 雞窗 (examinations)
                ),
            ),
            Spirit(G.天空, (_g("general.天空", "奏書"),)),  # ¶135 a memorial is a document
        ),
        mentions=(
            Mention(G.貴人, "general.貴人.丑", (B.丑,)),  # ¶91 升堂（丑）宜投書於公府
            Mention(G.勾陳, "general.勾陳.寅", (B.寅,)),  # ¶107 遭囚（寅）宜上書
            Mention(G.太陰, "general.太陰.寅午", (B.寅, B.午), (B.午,)),  # ¶119 財物文書暗動
            Mention(G.太常, "general.太常.酉", (B.酉,)),  # ¶127 酉作券書雖順而防後競
            Mention(G.白虎, "general.白虎.子", (B.子,)),  # ¶131 溺水（子）音書不至
            Mention(G.白虎, "general.白虎.申", (B.申,)),  # ¶131 銜牒（申）…可持其喜信
        ),
        kin=Kin.父母,
    ),
    MatterRules(
        Matter.marriage,
        (
            Spirit(
                G.六合,
                (
                    _g("general.六合", "粵有六合之神婚姻佳會"),  # ¶103
                    _g("general.六合.寅申", "乘軒（寅）結髮（申）從媒妁而成歡"),  # ¶103
                    _g("general.六合.午卯", "升堂（午）入室（卯）併為已就之占"),  # ¶103
                    _g("general.六合.未丑", "納采（未）妝嚴（丑）總是欲成之例"),  # ¶103
                ),
            ),
            Spirit(G.天后, (_g("general.天后", "蔽匿陰私之婦"), _t("general.天后", "人物の類神は婦人"))),  # ¶115/¶117
        ),
        # ¶151 八専/帷簿 內有怨女，外有曠夫; ¶159 蕪淫 主夫妻異心; ¶159 淫女 主淫奔不止 (not 炎上: §9.7)
        patterns=((P.八専, P.帷簿), (P.蕪淫,), (P.淫女,)),
        day_and_branch=True,
    ),
    MatterRules(
        Matter.lawsuit,
        (
            Spirit(G.勾陳, (_g("general.勾陳", "或逢勾陳發用必然鬥訟爭官"),)),  # ¶107 (a 發用 condition, R3)
            Spirit(G.白虎, (_g("general.白虎", "白虎道路官災病喪"), _t("general.白虎", "官非"))),  # ¶131/¶133
        ),
        mentions=(
            Mention(G.貴人, "general.貴人.卯", (B.卯,)),  # ¶91 登車（卯）宜訴詞於路
            Mention(G.朱雀, "general.朱雀.申午", (B.申, B.午)),  # ¶99 怪異經官語訟
            Mention(G.朱雀, "general.朱雀.酉", (B.酉,), (B.酉,)),  # ¶99 官災起蓋因夜噪（酉†）
            Mention(G.六合, "general.六合.辰戌", (B.辰, B.戌), (B.戌,)),  # ¶103 因妄冒而加罪
            Mention(G.六合, "general.六合.酉", (B.酉,), (B.酉,)),  # ¶103 私竄（酉†）不明之囚地
            Mention(G.太常, "general.太常.子", (B.子,)),  # ¶127 遭枷（子）必值決罰
            Mention(G.太常, "general.太常.戌", (B.戌,)),  # ¶127 逆命（戌）尊卑起訟
            Mention(G.太常, "general.太常.酉", (B.酉,)),  # ¶127 酉作券書…防後競
        ),
        patterns=((P.斫輪, P.鋳印), (P.天獄,), (P.天網,)),  # ¶155, ¶163, ¶163
        kin=Kin.官鬼,  # partly supported: ¶63 剋我 as harm, ¶163 天網 詞訟 — never named 官鬼
    ),
    MatterRules(
        Matter.wealth,
        (Spirit(G.青龍, (_g("general.青龍", "青龍財喜雖主亨通"),)),),  # ¶111
        mentions=(
            Mention(G.太陰, "general.太陰.寅午", (B.寅,)),  # ¶119 跣足（寅）財物文書暗動
            Mention(G.太常, "general.太常.卯", (B.卯,), (B.卯,)),  # ¶127 遺冠（卯†）財物遭傷
        ),
        patterns=((P.富貴,),),  # ¶155 增財吉慶
        kin=Kin.妻財,
    ),
    MatterRules(
        Matter.secret,
        (
            Spirit(
                G.天后, (_g("general.天后", "蔽匿陰私之婦"), _g("general.天后.酉卯", "倚戶（酉）臨門（卯）好淫未足"))
            ),
            Spirit(G.太陰, (_g("general.太陰", "太陰所為蔽匿，禍福其來不明"),)),  # ¶119
        ),
        # ¶151 多淫佚之意, ¶159 淫女, ¶159 三交 主藏匿陰私不明之人, ¶167 玄胎 主隱匿藏懷
        patterns=((P.八専, P.帷簿), (P.淫女,), (P.三交,), (P.玄胎,)),
    ),
    MatterRules(
        Matter.woman,
        (Spirit(G.天后, (_g("general.天后", "蔽匿陰私之婦"), _t("general.天后", "人物の類神は婦人"))),),  # ¶115/¶117
        mentions=(Mention(G.太陰, "general.太陰.子", (B.子,)),),  # ¶119 垂簾（子）則妾婦相侮
        patterns=((P.八専, P.帷簿),),  # ¶151 不利婦人嘻嘻
    ),
    MatterRules(
        Matter.lost,
        (
            Spirit(
                G.玄武,
                (
                    _g("general.玄武", "玄武遺亡陰賊走失"),
                    _t("general.玄武", "失物の占・捕盗の占はみなそれを類神とする"),
                ),
            ),  # ¶123/¶125
        ),
        mentions=(
            Mention(G.朱雀, "general.朱雀.辰戌", (B.辰, B.戌), (B.戌,)),  # ¶99 乖錯遺忘 (¶101 丟失)
            Mention(G.太陰, "general.太陰.亥巳", (B.亥, B.巳), (B.巳,)),  # ¶119 盜竊口舌憂驚
        ),
        patterns=((P.伏吟,),),  # ¶147 去盜非遙 (R8 says where)
        hidden_search=True,
    ),
    MatterRules(
        Matter.banquet,
        (
            Spirit(G.太常, (_g("general.太常", "太常筵會酒食相奉"),)),  # ¶127
            Spirit(G.六合, (_g("general.六合", "佳會"), _t("general.六合", "聚会の和合"))),  # ¶103/¶105
        ),
        mentions=(Mention(G.貴人, "general.貴人.未", (B.未,)),),  # ¶91 列席（未）則有酒筵之娛
    ),
    MatterRules(
        Matter.office,
        (
            Spirit(
                G.太常,
                (
                    _t("general.太常", "武職を占う類神"),  # ¶129
                    _g("general.太常.申丑", "銜杯（申）受爵（丑）不轉職而遷官"),  # ¶127
                    _g("general.太常.巳未", "鑄印（巳）捧觴（未）不徵召而喜慶"),  # ¶127
                    _g("general.太常.午", "乘軒（午）有改拜之封"),  # ¶127
                    _g("general.太常.辰", "佩印（辰）有遷官之命"),  # ¶127
                    _g("general.太常.亥", "亥為徵召"),  # ¶127
                ),
            ),
            Spirit(
                G.貴人,
                (
                    _g("pattern.龍首", "君子則有恩命出自天子"),
                    _g("general.貴人.申", "移途（申）則有求干之榮"),
                ),  # ¶151, ¶91
                opening=False,
            ),
            Spirit(
                G.勾陳,
                (
                    _g("general.勾陳", "爭官"),  # ¶107, read by ¶109 as contending for office (§9.7)
                    _t("general.勾陳", "官位を争奪する"),  # ¶109
                    _g("general.勾陳.巳", "捧印（巳）兮有封拜"),  # ¶107
                ),
            ),
        ),
        # ¶151 龍首, ¶155 官爵 主改拜升遷, ¶155 斫輪・鋳印 有官者必遷, ¶155 高蓋乗軒 鼎席必至, ¶175 炎上 急於進用
        patterns=((P.龍首,), (P.官爵,), (P.斫輪, P.鋳印), (P.高蓋乗軒,), (P.炎上,)),
        kin=Kin.官鬼,
    ),
    MatterRules(
        Matter.travel,
        (Spirit(G.白虎, (_g("general.白虎", "道路"),)),),  # ¶131
        # ¶147 虎視転蓬 出外而稽留不起, ¶147 伏吟 宜用靜, ¶151 八専 不宜男子波波, ¶163 斬関, ¶163 遊子
        patterns=((P.虎視転蓬,), (P.伏吟,), (P.八専, P.帷簿), (P.斬関,), (P.遊子,)),
    ),
    MatterRules(
        Matter.illness,
        (Spirit(G.白虎, (_g("general.白虎", "病喪"), _t("general.白虎", "疾病と喪亡"))),),  # ¶131/¶133
        mentions=(
            Mention(G.朱雀, "general.朱雀.未亥", (B.未, B.亥), (B.亥,)),  # ¶99 臨墳（未）入水（亥†）悲哀
            Mention(G.天后, "general.天后.戌午", (B.戌, B.午)),  # ¶115 非嘆息而呻吟 (¶117 臥病して呻吟)
        ),
        patterns=((P.天網,),),  # ¶163 常占多主凶病
        kin=Kin.官鬼,  # partly supported by ¶163, as for lawsuit
    ),
    MatterRules(
        Matter.deceit,
        (Spirit(G.天空, (_g("general.天空", "專主詐偽不實"),)),),  # ¶135
        mentions=(Mention(G.太常, "general.太常.寅", (B.寅,)),),  # ¶127 側目（寅）須遭讒佞
    ),
    MatterRules(
        Matter.child,
        (),  # the seed names no 類神 for children
        patterns=((P.玄胎,),),  # ¶167 或為胎孕
        kin=Kin.子孫,
    ),
)

# Patterns whose words speak of whatever is asked (end of §9.2), quoted once, under the first matter
# read (R9): ¶143 遙剋 所卜難成, ¶143 別責 凡占岡濟 (岡 sic for 罔), ¶147 反吟 凡事不定且主於遠.
ANY_MATTER: tuple[tuple[PatternName, ...], ...] = ((P.蒿矢, P.弾射), (P.別責,), (P.反吟,))

# Openings the seed conditions on 發用 (R3): ¶107 「或逢勾陳發用」, ¶97 「発用するのを見れば」 (騰蛇;
# ¶95's 但見 "whenever seen" is the school option ``School.tengshe_whenever_seen``).
ON_INITIAL = (G.勾陳, G.騰蛇)

RULES: dict[Matter, MatterRules] = {row.matter: row for row in TABLE}
# `woman` read as the person asked about (§9.4 amended): 天后's opening and name line only
PERSON = replace(RULES[Matter.woman], mentions=(), patterns=())
assert tuple(RULES) == tuple(Matter), "TABLE must list every matter once, in §9.2's order"
