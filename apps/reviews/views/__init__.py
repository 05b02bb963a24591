"""Review pages, one module per page:

- `lists`: the team's reviews and the reviewer's approval queue;
- `detail`: the review page with its decision panel, and the decision;
- `lifecycle`: create, edit, submit, clone;
- `candidates`: the candidates of a review.

Every URL also works as a plain page without JavaScript; each module's docstring says what an
htmx request gets. `urls.py` names the views; `common` holds what they share.
"""
