"""`pacesim reproduce`: paper figures from the catalogue, one command each.

What a figure is and how its claims are judged (`figure`, on the rules of `claims`, with the verdicts and
causes of `verdicts`) sit below the papers (`pacesim.papers`, one package each, which define the figures);
above them, `runner.reproduce` runs one by id into the results store and writes its CSV, PNG/SVG and report,
`catalogue.status()` lists every catalogue id and how it runs, and `paper_tables.write_tables` writes the
per-paper reproduction record.
"""
