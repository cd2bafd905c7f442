"""The pages, as Markdown: plain functions of the report and the project that never run the engine
and never write a file. `conformance` makes the overview, a page per session, the eras side by
side and the findings; `navigation` the by-feature and by-mode indexes; `releases` each family's
pinned release beside the others; `coverage`, `wire_types`, `worlds`, `sources` (the fixture
servers, the scenario format, the API), `peers`, `suite` and `architecture` one page each;
`engine_note` the warning a report made with another engine carries. Everything here runs at
build time, under ``mkdocs build`` and ``python -m agent_loop_sim site`` alike.
"""
