"""Review pages, one module per page:

- `lists`: the team's reviews and the reviewer's approval queue;
- `detail`: the review page with its decision panel (`page`; an approved one from the cache:
  `approved_page`), submit, decide, clone;
- `lifecycle`: create, edit;
- `candidates`: the candidates of a review;
- `fixes`: a finding's fix applied from the review page.

Every URL also works as a plain page without JavaScript; each module's docstring says what an
htmx request gets. `urls.py` names the views; `common` holds what they share.
"""
