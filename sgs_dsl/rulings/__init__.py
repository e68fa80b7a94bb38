"""Rulings as data: fixtures that set a table, script the answers and state the outcome."""
