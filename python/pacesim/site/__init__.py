"""The reproduction site: `pacesim report` turns a results store into static HTML.

`record.collect` gathers what the store holds for every catalogue id (its
claims judged by `reproduce.paper_tables.judge_all`, the same judging as the
per-paper markdown tables; its runs and their provenance; the figures
`pacesim reproduce` drew); `pages.write_site` renders it with the Jinja2
templates beside this module: an index of the whole catalogue and one page
per paper.
"""
