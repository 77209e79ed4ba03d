"""nb_benchmark (the head-to-head benchmark): leaderboard figures and claim rules."""
