"""Trust: scoring text for prompt injection, and down-ranking quarantined notes."""
