"""The bot's languages: which one a Discord locale reads, the UI texts, and the command translator.

Japanese is the default. ``zh-TW``/``zh-CN`` readers get Chinese labels and the classical
original without the Japanese translation; ``en-US``/``en-GB`` readers get English labels and
short English glosses of method and pattern names. Classical lines are never translated here:
only the corpus's ``original`` (and its own Japanese translation) is ever shown.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

Lang = Literal["ja", "en", "zh-TW", "zh-CN"]
LANGS: tuple[Lang, ...] = ("ja", "en", "zh-TW", "zh-CN")

_BY_LOCALE: dict[str, Lang] = {
    "ja": "ja", "en-US": "en", "en-GB": "en", "zh-TW": "zh-TW", "zh-CN": "zh-CN",
}


def language_of(locale: discord.Locale | str | None) -> Lang:
    """The language a Discord locale reads; anything else reads the default, Japanese."""
    key = locale.value if isinstance(locale, discord.Locale) else (locale or "ja")
    return _BY_LOCALE.get(key, "ja")


def shows_translation(lang: Lang) -> bool:
    """Chinese readers read the original alone; the corpus's translation is Japanese."""
    return lang in ("ja", "en")


# Short English glosses of the 課名 words (methods, frames) and the named patterns (RULES §4, §7).
# They help an English reader remember the name; they are not translations of the text.
GLOSSES: dict[str, str] = {
    "重審": "Repeated Scrutiny", "元首": "Sovereign Head", "知一": "Knowing the One",
    "見機": "Seeing the Moment", "察微": "Examining the Subtle", "綴瑕": "Mending the Flaw",
    "渉害": "Wading Through Harm", "蒿矢": "Reed Arrow", "弾射": "Pellet Shot",
    "昴星": "Pleiades", "別責": "Separate Charge", "八専": "Eight Exclusives",
    "自任": "Self-Reliant", "自信": "Self-Trusting", "無依": "Without Support",
    "伏吟": "Hidden Chant", "反吟": "Reversed Chant", "比用": "Comparing Use",
    "冬蛇掩目": "Winter Snake Covers Its Eyes", "虎視転蓬": "Tiger Glares, Tumbleweed Rolls",
    "帷簿": "Curtained Chamber", "龍首": "Dragon's Head", "龍戦": "Dragons at War",
    "官爵": "Office and Rank", "富貴": "Wealth and Honour", "斫輪": "Hewing the Wheel",
    "鋳印": "Casting the Seal", "高蓋乗軒": "High Canopy, Riding the Carriage",
    "蕪淫": "Overgrown Lust", "淫女": "Wanton Woman", "三交": "Threefold Meeting",
    "九醜": "Nine Uglies", "斬関": "Breaking the Pass", "遊子": "Wanderer",
    "天獄": "Heaven's Prison", "天網": "Heaven's Net", "玄胎": "Dark Womb",
    "贅婿": "Son-in-Law Marrying In", "無禄": "Without Stipend", "絶嗣": "Without Heirs",
    "励徳": "Encouraging Virtue", "乱首": "Rebellious Head", "稼穡": "Sowing and Reaping",
    "曲直": "Bent and Straight", "従革": "Yielding to Change", "炎上": "Flaming Up",
    "潤下": "Soaking Down",
}


def gloss(name: str) -> str:
    """``name`` with its English gloss, e.g. ``"反吟・重審 (Reversed Chant · Repeated Scrutiny)"``.

    Parts without a gloss are left as they are; a name with no glossed part is returned unchanged.
    """
    parts = name.split("・")
    glossed = [GLOSSES.get(p, p) for p in parts]
    if glossed == parts:
        return name
    return f"{name} ({' · '.join(glossed)})"


# UI texts by key. "ja" is the default; every key has all four languages (checked by a test).
TEXTS: dict[str, dict[Lang, str]] = {
    # -- command names and descriptions (through the Translator) --------------------------------
    "cast.description": {
        "ja": "いまの時刻または指定の日時で大六壬の課を立てます",
        "en": "Cast a Da Liu Ren chart for now or for a given date and time",
        "zh-TW": "以現在或指定的日時起大六壬課",
        "zh-CN": "以现在或指定的日时起大六壬课",
    },
    "cast.when.description": {
        "ja": "now、2026-11-29 14:00、14:00、2026年11月29日 14時、11/29 14:00 など",
        "en": "now, 2026-11-29 14:00, 14:00, 2026年11月29日 14時, 11/29 14:00 …",
        "zh-TW": "now、2026-11-29 14:00、14:00、2026年11月29日 14時、11/29 14:00 等",
        "zh-CN": "now、2026-11-29 14:00、14:00、2026年11月29日 14时、11/29 14:00 等",
    },
    "cast.tz.description": {
        "ja": "IANA のタイムゾーン（例 Asia/Tokyo）。省略時はサーバーの設定か既定値",
        "en": "IANA time zone (e.g. Asia/Tokyo); default: the server's setting or the bot's",
        "zh-TW": "IANA 時區（例 Asia/Taipei）；省略時用伺服器設定或預設值",
        "zh-CN": "IANA 时区（例 Asia/Shanghai）；省略时用服务器设定或默认值",
    },
    "cast.private.description": {
        "ja": "自分だけに見える返信にする",
        "en": "Reply so that only you can see it",
        "zh-TW": "只讓自己看到回覆",
        "zh-CN": "只让自己看到回复",
    },
    "cast.question.description": {
        "ja": "占う事柄（課に添えて表示します）",
        "en": "What you are asking about (shown with the chart)",
        "zh-TW": "所占之事（與課一同顯示）",
        "zh-CN": "所占之事（与课一同显示）",
    },
    "chart.description": {
        "ja": "日干支・月将・時支から課を立てます（学習用）",
        "en": "Cast from the day pillar, the 月将 and the hour branch (for study)",
        "zh-TW": "由日干支、月將、時支起課（學習用）",
        "zh-CN": "由日干支、月将、时支起课（学习用）",
    },
    "chart.day.description": {
        "ja": "日の干支（甲子〜癸亥）",
        "en": "The day pillar (甲子 … 癸亥)",
        "zh-TW": "日之干支（甲子至癸亥）",
        "zh-CN": "日之干支（甲子至癸亥）",
    },
    "chart.yuejiang.description": {
        "ja": "月将の支",
        "en": "The 月将 (monthly general) branch",
        "zh-TW": "月將之支",
        "zh-CN": "月将之支",
    },
    "chart.hour.description": {
        "ja": "占時の支",
        "en": "The hour branch",
        "zh-TW": "占時之支",
        "zh-CN": "占时之支",
    },
    "lookup.description": {
        "ja": "《心印賦》の語句を引きます",
        "en": "Look up a term in the 《心印賦》",
        "zh-TW": "查《心印賦》中的詞句",
        "zh-CN": "查《心印赋》中的词句",
    },
    "lookup.term.description": {
        "ja": "課名・天将・語句（候補から選べます）",
        "en": "A method, general or phrase (pick from the suggestions)",
        "zh-TW": "課名、天將或詞句（可從候選中選）",
        "zh-CN": "课名、天将或词句（可从候选中选）",
    },
    "help.description": {
        "ja": "このボットの使い方",
        "en": "What this bot does and how to use it",
        "zh-TW": "本機器人的用法",
        "zh-CN": "本机器人的用法",
    },
    # -- embed labels ------------------------------------------------------------------------
    "embed.moment": {"ja": "日時", "en": "Moment", "zh-TW": "日時", "zh-CN": "日时"},
    "embed.zone": {"ja": "タイムゾーン", "en": "Time zone", "zh-TW": "時區", "zh-CN": "时区"},
    "embed.classical": {
        "ja": "日干支・月将・時支から（日時なし）",
        "en": "from the day pillar, 月将 and hour (no moment)",
        "zh-TW": "由日干支、月將、時支（無日時）",
        "zh-CN": "由日干支、月将、时支（无日时）",
    },
    "embed.question": {"ja": "問", "en": "Question", "zh-TW": "問", "zh-CN": "问"},
    "embed.lessons": {"ja": "四課", "en": "四課 Four Lessons", "zh-TW": "四課", "zh-CN": "四课"},
    "embed.transmissions": {"ja": "三伝", "en": "三伝 Three Transmissions", "zh-TW": "三傳", "zh-CN": "三传"},
    "embed.plate": {
        "ja": "天地盤（マスの位置が地盤、中は天将と天盤）",
        "en": "天地盤 (a cell's place is its 地盤; inside: general and 天盤)",
        "zh-TW": "天地盤（格位為地盤，格內為天將與天盤）",
        "zh-CN": "天地盘（格位为地盘，格内为天将与天盘）",
    },
    "embed.void": {"ja": "空亡", "en": "void", "zh-TW": "空亡", "zh-CN": "空亡"},
    "embed.ground": {"ja": "地盤", "en": "on", "zh-TW": "地盤", "zh-CN": "地盘"},
    "embed.hidden": {"ja": "遁干", "en": "遁干", "zh-TW": "遁干", "zh-CN": "遁干"},
    "embed.noble": {"ja": "貴人", "en": "貴人", "zh-TW": "貴人", "zh-CN": "贵人"},
    "embed.day": {"ja": "晝", "en": "day", "zh-TW": "晝", "zh-CN": "昼"},
    "embed.night": {"ja": "夜", "en": "night", "zh-TW": "夜", "zh-CN": "夜"},
    "embed.reading": {"ja": "古典の句", "en": "Classical lines", "zh-TW": "原文", "zh-CN": "原文"},
    "embed.translation_note": {
        "ja": "",
        "en": "(the translation under each line is the corpus's Japanese)",
        "zh-TW": "",
        "zh-CN": "",
    },
    "embed.role.method": {"ja": "課法", "en": "Method", "zh-TW": "課法", "zh-CN": "课法"},
    "embed.role.frame": {"ja": "課格", "en": "Frame", "zh-TW": "課格", "zh-CN": "课格"},
    "embed.role.pattern": {"ja": "課体", "en": "Pattern", "zh-TW": "課體", "zh-CN": "课体"},
    "embed.role.general": {"ja": "天将", "en": "general", "zh-TW": "天將", "zh-CN": "天将"},
    "embed.role.general-on-branch": {"ja": "所臨", "en": "general on its branch",
                                     "zh-TW": "天將所臨", "zh-CN": "天将所临"},
    "embed.position.0": {"ja": "初伝", "en": "初伝", "zh-TW": "初傳", "zh-CN": "初传"},
    "embed.position.1": {"ja": "中伝", "en": "中伝", "zh-TW": "中傳", "zh-CN": "中传"},
    "embed.position.2": {"ja": "末伝", "en": "末伝", "zh-TW": "末傳", "zh-CN": "末传"},
    "embed.no_line": {
        "ja": "《心印賦》にこの句はありません。",
        "en": "The 《心印賦》 has no line for this.",
        "zh-TW": "《心印賦》無此句。",
        "zh-CN": "《心印赋》无此句。",
    },
    "embed.continued": {"ja": "（続き）", "en": "(continued)", "zh-TW": "（續）", "zh-CN": "（续）"},
    "embed.cut": {"ja": "…（次に続く）", "en": "… (continues)", "zh-TW": "…（下續）", "zh-CN": "…（下续）"},
    "embed.source": {
        "ja": "出典 《大六壬指南》巻一《心印賦》",
        "en": "Source: 《大六壬指南》巻一《心印賦》",
        "zh-TW": "出處 《大六壬指南》卷一《心印賦》",
        "zh-CN": "出处 《大六壬指南》卷一《心印赋》",
    },
    "embed.lookup_none": {
        "ja": "「{term}」は《心印賦》に見つかりません。候補から選んでください。",
        "en": "“{term}” is not in the 《心印賦》. Pick one of the suggestions.",
        "zh-TW": "《心印賦》中沒有「{term}」。請從候選中選擇。",
        "zh-CN": "《心印赋》中没有“{term}”。请从候选中选择。",
    },
    "embed.lookup_count": {
        "ja": "{total} 件中 {shown} 件を表示（多いときは語句を絞ってください）",
        "en": "{shown} of {total} passages shown (narrow the term for fewer)",
        "zh-TW": "共 {total} 條，顯示 {shown} 條（過多時請縮小詞句）",
        "zh-CN": "共 {total} 条，显示 {shown} 条（过多时请缩小词句）",
    },
    "embed.zone.given": {"ja": "指定", "en": "as given", "zh-TW": "指定", "zh-CN": "指定"},
    "embed.zone.server": {"ja": "サーバーの既定", "en": "this server's default", "zh-TW": "伺服器預設",
                          "zh-CN": "服务器默认"},
    "embed.zone.bot": {"ja": "ボットの既定", "en": "the bot's default", "zh-TW": "機器人預設",
                       "zh-CN": "机器人默认"},
    "embed.lookup_title": {"ja": "「{term}」", "en": "“{term}”", "zh-TW": "「{term}」", "zh-CN": "“{term}”"},
    # -- errors ------------------------------------------------------------------------------
    "error.when": {
        "ja": "日時「{text}」を読めません（{why}）。\n使える書き方: {forms}\n範囲は {first}〜{last} 年です。",
        "en": "I can't read “{text}” as a moment ({why}).\nAccepted forms: {forms}\nYears {first}–{last}.",
        "zh-TW": "無法讀取日時「{text}」（{why}）。\n可用格式：{forms}\n範圍為 {first}–{last} 年。",
        "zh-CN": "无法读取日时“{text}”（{why}）。\n可用格式：{forms}\n范围为 {first}–{last} 年。",
    },
    "error.when.unreadable": {"ja": "形式が違います", "en": "unknown format", "zh-TW": "格式不符",
                              "zh-CN": "格式不符"},
    "error.when.no_time": {"ja": "時刻がありません", "en": "no clock time", "zh-TW": "缺少時刻",
                           "zh-CN": "缺少时刻"},
    "error.when.range": {"ja": "範囲外です", "en": "out of range", "zh-TW": "超出範圍", "zh-CN": "超出范围"},
    "error.zone": {
        "ja": "タイムゾーン「{zone}」が分かりません。Asia/Tokyo のような IANA 名を候補から選んでください。",
        "en": "Unknown time zone “{zone}”. Pick an IANA name such as Asia/Tokyo from the suggestions.",
        "zh-TW": "不認識時區「{zone}」。請從候選中選擇 IANA 名稱，例如 Asia/Taipei。",
        "zh-CN": "不认识时区“{zone}”。请从候选中选择 IANA 名称，例如 Asia/Shanghai。",
    },
    "error.chart": {
        "ja": "課を立てられません: {detail}",
        "en": "Cannot cast this chart: {detail}",
        "zh-TW": "無法起課：{detail}",
        "zh-CN": "无法起课：{detail}",
    },
    "error.cooldown": {
        "ja": "少し待ってから（{seconds:.0f} 秒後）もう一度どうぞ。",
        "en": "Please try again in {seconds:.0f} s.",
        "zh-TW": "請 {seconds:.0f} 秒後再試。",
        "zh-CN": "请 {seconds:.0f} 秒后再试。",
    },
    "error.permission": {
        "ja": "この操作をする権限がありません（{detail}）。",
        "en": "You don't have permission for this ({detail}).",
        "zh-TW": "你沒有此操作的權限（{detail}）。",
        "zh-CN": "你没有此操作的权限（{detail}）。",
    },
    "error.bot_permission": {
        "ja": "ボットにこのチャンネルでの権限がありません（{detail}）。サーバー管理者に付与を頼んでください。",
        "en": "The bot lacks permissions in this channel ({detail}). Ask a server admin to grant them.",
        "zh-TW": "機器人在此頻道缺少權限（{detail}）。請伺服器管理員授予。",
        "zh-CN": "机器人在此频道缺少权限（{detail}）。请服务器管理员授予。",
    },
    "error.unknown_command": {
        "ja": "このコマンドは古くなっています。少し待ってから Discord を再読み込みしてください。",
        "en": "This command is out of date. Wait a moment and reload Discord.",
        "zh-TW": "此指令已過期。請稍候並重新載入 Discord。",
        "zh-CN": "此指令已过期。请稍候并重新载入 Discord。",
    },
    "error.internal": {
        "ja": "内部エラーが起きました（番号 {ref}）。"
              "もう一度試しても直らなければ、この番号をボットの管理者に伝えてください。",
        "en": "Something went wrong inside the bot (ref {ref}). If retrying does not help, "
              "give this ref to the bot's operator.",
        "zh-TW": "機器人內部發生錯誤（編號 {ref}）。若重試無效，請把此編號告知機器人管理者。",
        "zh-CN": "机器人内部发生错误（编号 {ref}）。若重试无效，请把此编号告知机器人管理者。",
    },
    # -- the daily posts (bot.daily): command descriptions, then replies ------------------------
    "daily.description": {
        "ja": "毎日の課の自動投稿",
        "en": "Daily chart post",
        "zh-TW": "每日自動發布課",
        "zh-CN": "每日自动发布课",
    },
    "daily.set.description": {
        "ja": "チャンネルに毎日の課を投稿する",
        "en": "Post the chart daily in a channel",
        "zh-TW": "每天在頻道發布課",
        "zh-CN": "每天在频道发布课",
    },
    "daily.set.channel.description": {
        "ja": "投稿先",
        "en": "Channel to post in",
        "zh-TW": "發文的頻道",
        "zh-CN": "发帖的频道",
    },
    "daily.set.time.description": {
        "ja": "投稿時刻 HH:MM",
        "en": "Local time HH:MM",
        "zh-TW": "發文時刻 HH:MM",
        "zh-CN": "发帖时刻 HH:MM",
    },
    "daily.set.tz.description": {
        "ja": "タイムゾーン（IANA, 例 Asia/Tokyo）。省略時はサーバーの既定",
        "en": "IANA time zone (e.g. Asia/Tokyo); default: the server's setting",
        "zh-TW": "IANA 時區（例 Asia/Taipei）；省略時用伺服器設定",
        "zh-CN": "IANA 时区（例 Asia/Shanghai）；省略时用服务器设定",
    },
    "daily.show.description": {
        "ja": "日課の投稿の設定を表示",
        "en": "Show the daily posts",
        "zh-TW": "顯示每日發文的設定",
        "zh-CN": "显示每日发帖的设定",
    },
    "daily.off.description": {
        "ja": "日課の投稿を止める",
        "en": "Stop daily posts",
        "zh-TW": "停止每日發文",
        "zh-CN": "停止每日发帖",
    },
    "daily.off.channel.description": {
        "ja": "このチャンネルだけ（省略時はすべて）",
        "en": "Only this channel (default: all)",
        "zh-TW": "只停此頻道（省略時全部）",
        "zh-CN": "只停此频道（省略时全部）",
    },
    "daily.now.description": {
        "ja": "今すぐ投稿して権限を確認",
        "en": "Post now to check permissions",
        "zh-TW": "立即發文以確認權限",
        "zh-CN": "立即发帖以确认权限",
    },
    "daily.settings.description": {
        "ja": "サーバーの設定",
        "en": "Server settings",
        "zh-TW": "伺服器設定",
        "zh-CN": "服务器设定",
    },
    "daily.settings.timezone.description": {
        "ja": "サーバーの既定のタイムゾーン",
        "en": "The server's default time zone",
        "zh-TW": "伺服器的預設時區",
        "zh-CN": "服务器的默认时区",
    },
    "daily.settings.timezone.zone.description": {
        "ja": "IANA タイムゾーン（例 Asia/Tokyo）",
        "en": "IANA zone, e.g. Asia/Tokyo",
        "zh-TW": "IANA 時區（例 Asia/Taipei）",
        "zh-CN": "IANA 时区（例 Asia/Shanghai）",
    },
    "daily.bad_time": {
        "ja": "時刻 `{value}` は使えません。`HH:MM`（00:00〜23:59、例 `07:30`）で指定してください。",
        "en": "Time `{value}` is not valid. Use `HH:MM` (00:00–23:59, e.g. `07:30`).",
        "zh-TW": "時刻 `{value}` 無效。請用 `HH:MM`（00:00–23:59，例 `07:30`）指定。",
        "zh-CN": "时刻 `{value}` 无效。请用 `HH:MM`（00:00–23:59，例 `07:30`）指定。",
    },
    "daily.bad_zone": {
        "ja": "タイムゾーン `{value}` は見つかりません。`Asia/Tokyo` のような IANA 名で指定してください。",
        "en": "Unknown time zone `{value}`. Use an IANA name such as `Asia/Tokyo`.",
        "zh-TW": "找不到時區 `{value}`。請用 `Asia/Taipei` 這類 IANA 名稱指定。",
        "zh-CN": "找不到时区 `{value}`。请用 `Asia/Shanghai` 这类 IANA 名称指定。",
    },
    "daily.no_zone": {
        "ja": "タイムゾーンを `tz:` で指定するか、`/settings timezone` でサーバーの既定を設定してください。",
        "en": "Give a zone with `tz:`, or set the server default with `/settings timezone`.",
        "zh-TW": "請以 `tz:` 指定時區，或用 `/settings timezone` 設定伺服器的預設時區。",
        "zh-CN": "请以 `tz:` 指定时区，或用 `/settings timezone` 设定服务器的默认时区。",
    },
    "daily.bad_channel": {
        "ja": "{channel} に投稿できません（不足している権限: {missing}）。権限を確認してください。",
        "en": "I cannot post in {channel} (missing: {missing}). Check the channel's permissions.",
        "zh-TW": "無法在 {channel} 發文（缺少權限：{missing}）。請檢查頻道的權限。",
        "zh-CN": "无法在 {channel} 发帖（缺少权限：{missing}）。请检查频道的权限。",
    },
    "daily.unknown_channel": {
        "ja": "そのチャンネルは見つからないか、このサーバーのテキストチャンネルではありません。",
        "en": "That channel cannot be found or is not a text channel of this server.",
        "zh-TW": "找不到該頻道，或它不是本伺服器的文字頻道。",
        "zh-CN": "找不到该频道，或它不是本服务器的文字频道。",
    },
    "daily.set": {
        "ja": "✅ {channel} に毎日 {time}（{zone}）の課を投稿します。次回: {next}",
        "en": "✅ {channel} will get the chart every day at {time} ({zone}). Next: {next}",
        "zh-TW": "✅ 每天 {time}（{zone}）在 {channel} 發布該時之課。下次：{next}",
        "zh-CN": "✅ 每天 {time}（{zone}）在 {channel} 发布该时之课。下次：{next}",
    },
    "daily.none": {
        "ja": "このサーバーには日課の投稿が設定されていません。`/daily set` で設定できます。",
        "en": "No daily posts are set for this server. Use `/daily set`.",
        "zh-TW": "本伺服器未設定每日發文。可用 `/daily set` 設定。",
        "zh-CN": "本服务器未设定每日发帖。可用 `/daily set` 设定。",
    },
    "daily.show_head": {
        "ja": "**日課の投稿**（既定のタイムゾーン: {zone}）",
        "en": "**Daily posts** (server zone: {zone})",
        "zh-TW": "**每日發文**（伺服器預設時區：{zone}）",
        "zh-CN": "**每日发帖**（服务器默认时区：{zone}）",
    },
    "daily.unset": {"ja": "未設定", "en": "not set", "zh-TW": "未設定", "zh-CN": "未设定"},
    "daily.show_row": {
        "ja": "{channel} 毎日 {time}（{zone}）— 次回 {next}、前回 {last}",
        "en": "{channel} daily at {time} ({zone}) — next {next}, last {last}",
        "zh-TW": "{channel} 每天 {time}（{zone}）— 下次 {next}，上次 {last}",
        "zh-CN": "{channel} 每天 {time}（{zone}）— 下次 {next}，上次 {last}",
    },
    "daily.never": {"ja": "なし", "en": "never", "zh-TW": "無", "zh-CN": "无"},
    "daily.disabled": {
        "ja": "　⛔ 停止中: {reason}（直したら `/daily set` で再開）",
        "en": "　⛔ stopped: {reason} (fix it, then `/daily set` again)",
        "zh-TW": "　⛔ 已停止：{reason}（修正後用 `/daily set` 重新開始）",
        "zh-CN": "　⛔ 已停止：{reason}（修正后用 `/daily set` 重新开始）",
    },
    "daily.last_error": {
        "ja": "　⚠️ 前回のエラー: {error}",
        "en": "　⚠️ last error: {error}",
        "zh-TW": "　⚠️ 上次的錯誤：{error}",
        "zh-CN": "　⚠️ 上次的错误：{error}",
    },
    "daily.bad_row": {
        "ja": "⚠️ 設定 #{id}（{channel}）が読めません: {problem}"
              " — `/daily set` で設定し直すか `/daily off` で削除してください",
        "en": "⚠️ Schedule #{id} ({channel}) is unreadable: {problem} — set it again with `/daily set` or remove it",
        "zh-TW": "⚠️ 設定 #{id}（{channel}）無法讀取：{problem} — 請用 `/daily set` 重新設定，或用 `/daily off` 刪除",
        "zh-CN": "⚠️ 设定 #{id}（{channel}）无法读取：{problem} — 请用 `/daily set` 重新设定，或用 `/daily off` 删除",
    },
    "daily.off": {
        "ja": "{count} 件の日課の投稿を止めました。",
        "en": "Removed {count} daily post(s).",
        "zh-TW": "已停止 {count} 項每日發文。",
        "zh-CN": "已停止 {count} 项每日发帖。",
    },
    "daily.off_none": {
        "ja": "止める日課の投稿はありませんでした。",
        "en": "There was no daily post to remove.",
        "zh-TW": "沒有要停止的每日發文。",
        "zh-CN": "没有要停止的每日发帖。",
    },
    "daily.now_ok": {
        "ja": "✅ {channel} に投稿しました。",
        "en": "✅ Posted in {channel}.",
        "zh-TW": "✅ 已在 {channel} 發文。",
        "zh-CN": "✅ 已在 {channel} 发帖。",
    },
    "daily.now_fail": {
        "ja": "❌ {channel}: {reason}",
        "en": "❌ {channel}: {reason}",
        "zh-TW": "❌ {channel}：{reason}",
        "zh-CN": "❌ {channel}：{reason}",
    },
    "daily.now_disabled": {
        "ja": "（この設定を停止しました）",
        "en": "(this schedule is now stopped)",
        "zh-TW": "（已停止此設定）",
        "zh-CN": "（已停止此设定）",
    },
    "daily.now_enabled": {
        "ja": "（停止を解除しました）",
        "en": "(this schedule is running again)",
        "zh-TW": "（已恢復此設定）",
        "zh-CN": "（已恢复此设定）",
    },
    "daily.zone_set": {
        "ja": "✅ このサーバーの既定のタイムゾーンを {zone} にしました。",
        "en": "✅ The server's default time zone is now {zone}.",
        "zh-TW": "✅ 本伺服器的預設時區已設為 {zone}。",
        "zh-CN": "✅ 本服务器的默认时区已设为 {zone}。",
    },
    "daily.post_header": {
        "ja": "📅 日課 {date} {time}（{zone}）",
        "en": "📅 Daily chart {date} {time} ({zone})",
        "zh-TW": "📅 每日之課 {date} {time}（{zone}）",
        "zh-CN": "📅 每日之课 {date} {time}（{zone}）",
    },
    # -- help --------------------------------------------------------------------------------
    "help.title": {"ja": "大六壬ボット", "en": "Da Liu Ren bot", "zh-TW": "大六壬機器人", "zh-CN": "大六壬机器人"},
    "help.body": {
        "ja": (
            "大六壬の課を立て、《大六壬指南》巻一《心印賦》の該当句（原文と和訳）を示します。\n"
            "**/cast**（占う） 日時:now や 2026-11-29 14:00 — その時刻の課。タイムゾーン・非公開・質問も指定可\n"
            "**/chart**（課式） 日干支・月将・時支から直接立てる（学習用）\n"
            "**/lookup**（調べる） 課名・天将・語句の原文と和訳\n"
            "**/help** この説明\n"
            "既定のタイムゾーンは {zone}。返信には使ったタイムゾーンを必ず書きます。"
        ),
        "en": (
            "Casts Da Liu Ren (大六壬) charts and shows the matching lines of the 《心印賦》 "
            "(《大六壬指南》 book 1): the classical original, with the corpus's Japanese translation.\n"
            "**/cast** when:now or 2026-11-29 14:00 — the chart for that moment; optional tz, private, question\n"
            "**/chart** day, yuejiang, hour — cast from the classical inputs (for study)\n"
            "**/lookup** term — the original lines for a method, general or phrase\n"
            "**/help** — this text\n"
            "Method and pattern names carry short English glosses. Default time zone: {zone}; "
            "every reply says which zone it used."
        ),
        "zh-TW": (
            "起大六壬課，並列出《大六壬指南》卷一《心印賦》的相應原文。\n"
            "**/cast** 日時 now 或 2026-11-29 14:00 — 該時刻之課；可指定時區、私密、問題\n"
            "**/chart** 由日干支、月將、時支直接起課（學習用）\n"
            "**/lookup** 查課名、天將或詞句的原文\n"
            "**/help** 本說明\n"
            "預設時區為 {zone}；回覆中一定註明所用時區。"
        ),
        "zh-CN": (
            "起大六壬课，并列出《大六壬指南》卷一《心印赋》的相应原文。\n"
            "**/cast** 日时 now 或 2026-11-29 14:00 — 该时刻之课；可指定时区、私密、问题\n"
            "**/chart** 由日干支、月将、时支直接起课（学习用）\n"
            "**/lookup** 查课名、天将或词句的原文\n"
            "**/help** 本说明\n"
            "默认时区为 {zone}；回复中一定注明所用时区。"
        ),
    },
}


def text(key: str, lang: Lang, /, **values: object) -> str:
    """The UI text ``key`` in ``lang`` (Japanese when missing), formatted with ``values``."""
    entry = TEXTS[key]
    template = entry.get(lang) or entry["ja"]
    return template.format(**values) if values else template


def ls(key: str) -> app_commands.locale_str:
    """A command description whose default is the Japanese text; the Translator localizes it.

    Command and option names stay the ASCII names everyone types (``/cast when:now``), so
    help texts and docs read the same in every language.
    """
    return app_commands.locale_str(TEXTS[key]["ja"], key=key)


class Translator(app_commands.Translator):
    """Gives Discord the localized command names and descriptions from ``TEXTS``."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if not isinstance(key, str) or key not in TEXTS or locale.value not in _BY_LOCALE:
            return None
        translated = TEXTS[key].get(_BY_LOCALE[locale.value])
        if translated is None or translated == string.message:
            return None
        return translated
