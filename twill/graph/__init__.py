"""Loop dependence graphs: the model, its JSON form, builders and analyses."""
