"""The detail pane: one item edited in place, its links, a contact card's other fields."""
