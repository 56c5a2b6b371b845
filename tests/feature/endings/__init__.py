"""A feature in one folder that lives in the tests alone (docs/features.md): it hears every
match's end and adds a part to an account's data download, through games.hooks only."""
