"""sgs-dsl: a declarative rules language for Sanguosha (三國殺) and the engine that runs it."""

__version__ = "0.1.0"
