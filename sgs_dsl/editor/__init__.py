"""Tools for designers who write .sgs text: skill text read back from the rules."""
