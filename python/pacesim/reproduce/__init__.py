"""`pacesim reproduce`: paper figures from the catalogue, one command each.

`figures.FIGURES` defines what each id sweeps, draws and claims; `runner.reproduce`
runs one into the results store and writes its CSV, PNG/SVG and report;
`catalogue.status()` lists every catalogue id and whether it runs yet.
"""
