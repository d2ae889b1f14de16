"""What happens to a record after it is written: history and rollback, retention, erase, export and import."""
