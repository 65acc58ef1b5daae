"""``python -m texts.cli``: the ``liuren`` command."""

from texts.cli.liuren import console

if __name__ == "__main__":
    raise SystemExit(console())
