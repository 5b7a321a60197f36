"""Game-agnostic machinery shared by every game: errors, seeding, registry, strategy specs."""
