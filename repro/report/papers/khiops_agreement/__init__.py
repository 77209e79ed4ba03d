"""khiops_agreement (fnb_khiops against Khiops 11): the agreement table."""
