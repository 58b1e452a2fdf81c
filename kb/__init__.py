"""judge-kb: an offline rulings knowledge base for Magic: The Gathering judges."""

__version__ = "0.1.0"
