"""够级 Gouji: rules (options and plays so far; not yet a registered game), hot (plays; compiled)."""
