"""Pizza Theory (3 players; a 2-player neutral variant): place toppings, cut simultaneously,
majorities take over."""
