"""New York Slice: deck, rules, reference engine and strategies."""
