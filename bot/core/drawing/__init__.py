"""The pictures' own process: the bot's side (``process``) and the child's (``child``)."""
