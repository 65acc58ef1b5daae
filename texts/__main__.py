"""``python -m texts 貴人 子``: look a term up in the 《心印賦》 (texts/cli/lookup.py)."""

from texts.cli.lookup import console

if __name__ == "__main__":
    raise SystemExit(console())
