"""English-language rules used by recall and the write path. English only: other languages pass through."""
