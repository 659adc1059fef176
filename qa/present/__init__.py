"""Layer 6, presenting: answers and units for people and programs (HTML cards, terminal text, plain text and
Markdown copies, the reading view, display options, typed rows); no door logic."""
