"""The parts the pages are made of: `markdown` writes text that what it quotes cannot break,
`rawhtml` the big HTML blocks MkDocs passes through unparsed, `wirelog` a session as its wire log
(lanes, summaries, the HTTP envelope, folded JSON), `lifecycle` a state table drawn as SVG and
`badge` the conformance badge. They know nothing of the report or the project.
"""
