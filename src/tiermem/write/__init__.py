"""The write path: duplicates, supersession, consolidation of stored facts, and fact extraction."""
