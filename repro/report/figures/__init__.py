"""Figure generators of the paper reproductions: one module per paper, each function
``fig(records, out_dir, report_cfg) -> list[Path]`` reads stored records and writes PNG + PDF."""
