"""Quick capture, and reading what a person types in the due and repeat fields."""
