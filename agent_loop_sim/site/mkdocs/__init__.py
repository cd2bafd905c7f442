"""The site under MkDocs: `events` is what the hooks in ``hooks/`` call at each MkDocs event, at
build and serve time alike. The rest runs only under ``mkdocs serve`` (``make serve``):
`incremental` re-checks and re-renders only what an edit touched, `serving` reacts to file events
and merges the search index page by page. A ``mkdocs build`` starts from scratch every time.
"""
