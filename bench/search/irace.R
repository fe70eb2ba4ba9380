# SPDX-License-Identifier: GPL-2.0-or-later
# irace as a peer of the search benchmark (bench/search/README.md, "irace").
# One irace run over the oracle's space: 8 categorical parameters (the value
# indices), instances = weight vectors of an augmented Chebyshev
# scalarisation of the two objectives normalised by the dataset's ranges,
# every experiment one evaluation through oracle.py (the shared noisy
# evaluator), written to the trace in the order irace asked for them.
#
# Usage: Rscript irace.R --data DIR --seed S --budget N --trace FILE
#          --python PY --oracle ORACLE_PY [--noise-scale F] [--workdir DIR]
# Prints one line "irace-settings: ..." (the options it needed) on stdout, or
# "irace-refused: ..." and exits 3 when no setting runs with N experiments.
suppressPackageStartupMessages(library(irace))

args <- commandArgs(trailingOnly = TRUE)
opt <- list(noise_scale = "1", workdir = tempdir())
i <- 1
while (i <= length(args)) {
	key <- gsub("-", "_", sub("^--", "", args[i]))
	if (i == length(args) || !startsWith(args[i], "--"))
		stop("usage: irace.R --data DIR --seed S --budget N --trace FILE --python PY --oracle ORACLE_PY")
	opt[[key]] <- args[i + 1]
	i <- i + 2
}
for (k in c("data", "seed", "budget", "trace", "python", "oracle"))
	if (is.null(opt[[k]])) stop("irace.R: --", k, " missing")
seed <- as.integer(opt$seed)
budget <- as.integer(opt$budget)

data <- read.csv(file.path(opt$data, "oracle.csv"))
dims <- names(data)[2:(ncol(data) - 2)]
radix <- sapply(dims, function(d) max(data[[d]]) + 1)
# The weight of each digit of the mixed-radix index (the last fastest).
place <- rev(cumprod(c(1, rev(radix)[-length(radix)])))
tmin <- min(data$throughput); tmax <- max(data$throughput)
smin <- min(data$size); smax <- max(data$size)

param_text <- paste(sprintf('%s "" c (%s)', dims,
	sapply(radix, function(r) paste(0:(r - 1), collapse = ", "))), collapse = "\n")
parameters <- readParameters(text = param_text)

# Weight w on throughput, 1 - w on size: 11 trade-offs, the two ends included.
weights <- seq(0, 1, by = 0.1)
instances <- sprintf("w=%.1f", weights)
rho <- 0.01

# The augmented Chebyshev cost of measured values under weight w (minimised):
# each objective as its distance from the dataset's best, over its range.
cost_of <- function(w, t, s) {
	ft <- (tmax - t) / (tmax - tmin)
	fs <- (s - smin) / (smax - smin)
	max(w * ft, (1 - w) * fs) + rho * (ft + fs)
}

state <- new.env()
reset_state <- function() {
	state$count <- integer(prod(radix))  # evaluations so far, per configuration
	state$n <- 0L
	cat("index,k,throughput,size\n", file = opt$trace)
}

# Every experiment of one race step at once: one oracle.py process.
evaluate <- function(experiments) {
	idx <- sapply(experiments, function(e) {
		v <- as.integer(as.character(unlist(e$configuration[1, dims])))
		sum(v * place)
	})
	k <- integer(length(idx))
	for (j in seq_along(idx)) {
		k[j] <- state$count[idx[j] + 1]
		state$count[idx[j] + 1] <- k[j] + 1L
	}
	batch <- file.path(opt$workdir, sprintf("batch-%d", Sys.getpid()))
	writeLines(sprintf("%d %d", idx, k), batch)
	out <- system2(opt$python, c(opt$oracle, "--data", opt$data, "--noise-scale", opt$noise_scale,
		"eval", "--seed", seed, "--batch", batch), stdout = TRUE)
	unlink(batch)
	if (!is.null(attr(out, "status")) || length(out) != length(idx))
		stop("irace.R: oracle.py eval failed")
	cat(sprintf("%d,%d,%s", idx, k, sub(" ", ",", out)), file = opt$trace, sep = "\n", append = TRUE)
	state$n <- state$n + length(idx)
	vals <- strsplit(out, " ")
	lapply(seq_along(experiments), function(j) {
		w <- as.numeric(sub("^w=", "", experiments[[j]]$instance))
		v <- as.numeric(vals[[j]])
		list(cost = cost_of(w, v[1], v[2]), time = NA_real_, call = "oracle.py eval")
	})
}
runner_one <- function(experiment, scenario) evaluate(list(experiment))[[1]]
runner_batch <- function(experiments, exec.target.runner, scenario, target.runner) evaluate(experiments)

# irace's defaults first; when it refuses the budget ("Insufficient budget"),
# the next setting, each a step further from the defaults.
ladder <- list(
	list(name = "defaults"),
	list(name = "firstTest=2 mu=2", firstTest = 2, mu = 2),
	list(name = "firstTest=2 mu=2 minNbSurvival=2", firstTest = 2, mu = 2, minNbSurvival = 2),
	list(name = "firstTest=2 mu=2 minNbSurvival=2 nbIterations=2", firstTest = 2, mu = 2,
		minNbSurvival = 2, nbIterations = 2),
	list(name = "firstTest=2 mu=2 minNbSurvival=1 nbIterations=1", firstTest = 2, mu = 2,
		minNbSurvival = 1, nbIterations = 1))

refusals <- character(0)
for (rung in ladder) {
	reset_state()
	scenario <- list(targetRunner = runner_one, targetRunnerParallel = runner_batch,
		instances = instances, maxExperiments = budget, seed = seed, execDir = opt$workdir,
		logFile = "", quiet = TRUE, deterministic = 0)
	for (k in setdiff(names(rung), "name"))
		scenario[[k]] <- rung[[k]]
	refused <- NULL
	res <- tryCatch(irace(scenario = scenario, parameters = parameters),
		error = function(e) { refused <<- conditionMessage(e); NULL })
	if (is.null(refused)) {
		cat(sprintf("irace-settings: %s; %d of %d experiments used\n", rung$name, state$n, budget))
		quit(status = 0)
	}
	if (!grepl("Insufficient budget", refused) || state$n > 0) {
		cat(refused, file = stderr())
		quit(status = 1)
	}
	refusals <- c(refusals, sprintf("%s: %s", rung$name, gsub("\\s+", " ", refused)))
}
need <- sub(".*at least '([0-9.]+)'.*", "\\1", refusals[length(refusals)])
cat(sprintf("irace-refused: irace cannot run with %d experiments (its smallest setting here, %s, needs %s)\n",
	budget, ladder[[length(ladder)]]$name, need))
cat(refusals, file = stderr(), sep = "\n")
quit(status = 3)
