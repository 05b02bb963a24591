"""How every page answers: the two shapes of one URL (htmx) and form helpers shared by all apps.

A plain package, not a Django app: no models, no templates. It sits in the foundation layer with
apps.accounts and imports no app but the pure engine (for its number limits).
"""
