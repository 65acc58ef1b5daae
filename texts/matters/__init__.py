"""The matter asked (docs/rules.md §9): the question recognised (recognise.py), the table of what
the seed says for each matter (table.py), the lines it quotes (quotes.py), the chart read for it as
values (values.py), and, on top, its words (phrases.py) and sentences (sentences.py)."""
