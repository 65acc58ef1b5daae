"""The chart as Discord shows it: embeds within Discord's limits (limits), a chart's reply (chart),
the matter asked as fields (matters), a look-up's reply (lookup), the reply kept per 時 (kept), the
link to the study site (site), and the one sender of interaction replies (send). Used by study,
casebook and daily; it imports the bot's core, never a feature."""
