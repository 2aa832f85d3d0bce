"""Items as the window lists them: the sections, what is read from the memory for a list,
the detail pane and the timeline (plain functions on the worker), and the row list that draws them."""
