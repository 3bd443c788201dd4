# How much does the comparison of CEC-IB's default with Rmixmod move from one
# set of draws to another? Issue 45's target compares mean NMI over the UCI
# data of the CEC-IB paper (Smieja & Geiger 2017) "in the same run", at 30%
# correct labels; this bench repeats such a run with several seed sets.
#
# Run from the repository root, with sideclust and Rmixmod installed:
#   Rscript bench/cec-ib-seeds.R
#   BENCH_SEEDS=2 BENCH_DRAWS=3 BENCH_CORES=1 Rscript bench/cec-ib-seeds.R   # (default 6 / 10 / 2)
#
# Protocol: seed set s (1..BENCH_SEEDS), data set d, draw t: labels by
# set.seed(700000 + 10000 s + 1000 d + t), then sample_labels(y, 0.3); each
# call preceded by set.seed(800000 + 10000 s + 1000 d + 10 m + t). Methods:
# * default: cec_ib(x, labels) (beta = 1, no k: the default search);
# * from_one: cec_ib(x, labels, k = 1, split = TRUE) (split mode with the BIC
#   from one cluster, the default call before the label start);
# * mixmod: Rmixmod::mixmodCluster(knownLabels, nbCluster = true k), its
#   default model, as in the paper (skipped when a class has no label).
# Reported per seed set: mean NMI (2 I / (H1 + H2)) over the data sets of
# the means over the draws, data sets with median K within true k +- 1;
# over the seed sets: mean, standard deviation and standard error of the
# difference default - mixmod.

library(sideclust)
source(file.path("bench", "utils.R"))

n_seeds <- as.integer(Sys.getenv("BENCH_SEEDS", "6"))
n_draws <- as.integer(Sys.getenv("BENCH_DRAWS", "10"))
n_cores <- as.integer(Sys.getenv("BENCH_CORES", "2"))
out_file <- file.path("bench", "results", "cec-ib-seeds.md")
command <- bench_command("bench/cec-ib-seeds.R", c("BENCH_SEEDS", "BENCH_DRAWS", "BENCH_CORES"))
methods <- c("default", "from_one", "mixmod")
datasets <- cecib_paper_datasets()

run_method <- function(m, ds, lab) {
  switch(m,
    default = cec_ib(ds$x, lab)$cluster,
    from_one = cec_ib(ds$x, lab, k = 1, split = TRUE)$cluster,
    mixmod = {
      known <- ifelse(is.na(lab$labels), 0L, lab$labels)
      if (!all(seq_len(ds$k) %in% known)) return(NULL)
      Rmixmod::mixmodCluster(data = as.data.frame(ds$x), nbCluster = ds$k, knownLabels = known,
                             seed = sample.int(.Machine$integer.max, 1L))@bestResult@partition
    })
}

run_draw <- function(s, d, t) {
  ds <- datasets[[d]]
  set.seed(700000L + 10000L * s + 1000L * d + t)
  lab <- sample_labels(ds$y, 0.3)
  do.call(rbind, lapply(seq_along(methods), function(mi) {
    set.seed(800000L + 10000L * s + 1000L * d + 10L * mi + t)
    cl <- run_method(methods[mi], ds, lab)
    ok <- length(cl) == nrow(ds$x)
    data.frame(seed_set = s, dataset = names(datasets)[d], true_k = ds$k, draw = t,
               method = methods[mi], K = if (ok) length(unique(cl)) else NA_integer_,
               NMI = if (ok) nmi(ds$y, cl, normalization = "sum") else NA_real_)
  }))
}

t_start <- proc.time()[["elapsed"]]
jobs <- expand.grid(t = seq_len(n_draws), d = seq_along(datasets), s = seq_len(n_seeds))
res <- parallel::mclapply(seq_len(nrow(jobs)), function(j) run_draw(jobs$s[j], jobs$d[j], jobs$t[j]),
                          mc.cores = n_cores, mc.preschedule = FALSE)
bad <- vapply(res, inherits, logical(1), "try-error")
if (any(bad)) stop("a worker failed: ", as.character(res[[which(bad)[1]]]))
res <- do.call(rbind, res)
elapsed <- proc.time()[["elapsed"]] - t_start

# draws where mixmod could not run are left out for every method, so that
# the three means of a seed set are over the same draws
skip <- unique(res[res$method == "mixmod" & is.na(res$NMI), c("seed_set", "dataset", "draw")])
key <- paste(res$seed_set, res$dataset, res$draw)
res <- res[!key %in% paste(skip$seed_set, skip$dataset, skip$draw), ]

per_set <- do.call(rbind, lapply(split(res, res$seed_set), function(g) {
  by_ds <- aggregate(cbind(NMI, K) ~ dataset + true_k + method, g,
                     function(v) c(mean = mean(v), median = stats::median(v)))
  row <- data.frame(seed_set = g$seed_set[1])
  for (m in methods) {
    b <- by_ds[by_ds$method == m, ]
    row[[paste0(m, "_NMI")]] <- mean(b$NMI[, "mean"])
    row[[paste0(m, "_hits")]] <- sum(abs(b$K[, "median"] - b$true_k) <= 1)
  }
  row$default_minus_mixmod <- row$default_NMI - row$mixmod_NMI
  row$from_one_minus_mixmod <- row$from_one_NMI - row$mixmod_NMI
  row
}))
spread <- function(v) sprintf("mean %+.4f, sd %.4f, standard error %.4f (%d seed sets); positive in %d of %d",
                              mean(v), stats::sd(v), stats::sd(v) / sqrt(length(v)), length(v),
                              sum(v > 0), length(v))
per_ds <- aggregate(NMI ~ dataset + method, res, mean)
per_ds <- stats::reshape(per_ds, idvar = "dataset", timevar = "method", direction = "wide")
names(per_ds) <- sub("^NMI\\.", "", names(per_ds))
per_ds <- per_ds[match(names(datasets), per_ds$dataset), c("dataset", methods)]

tab <- per_set
for (j in grep("NMI|minus", names(tab))) tab[[j]] <- sprintf("%.3f", tab[[j]])
for (j in grep("minus", names(tab))) tab[[j]] <- sprintf("%+.3f", as.numeric(tab[[j]]))
lines <- c("# CEC-IB's default against Rmixmod over several seed sets (UCI data of the CEC-IB paper, 30% labels)", "",
  "Written by `bench/cec-ib-seeds.R`; see its header for the protocol.", "",
  sprintf("- date: %s", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")),
  sprintf("- machine: %d cores, %s; run on %d cores, shared with other jobs",
          parallel::detectCores(), cpu_name(), n_cores),
  sprintf("- R: %s; sideclust %s (bench git %s); Rmixmod %s", R.version.string,
          as.character(utils::packageVersion("sideclust")), git_commit(),
          as.character(utils::packageVersion("Rmixmod"))),
  sprintf("- command: `%s`; %d seed sets of %d draws per data set; elapsed %.0f s", command, n_seeds,
          n_draws, elapsed),
  sprintf("- draws where a class had no label (mixmod cannot run) are left out for all methods: %d of %d",
          nrow(skip), n_seeds * n_draws * length(datasets)),
  "- NMI: mean over the 7 data sets of the mean over the draws; hits: data sets (of 7) with median K within true k +- 1", "",
  "Per seed set (each row is one run of the issue's comparison):", "",
  md_table(tab, 3), "",
  "Over the seed sets:", "",
  paste0("- default - mixmod: ", spread(per_set$default_minus_mixmod)),
  paste0("- from_one - mixmod: ", spread(per_set$from_one_minus_mixmod)),
  paste0("- default - from_one: ", spread(per_set$default_NMI - per_set$from_one_NMI)),
  sprintf("- hits of the default: %s", paste(per_set$default_hits, collapse = ", ")), "",
  "Mean NMI per data set over all seed sets and draws:", "",
  md_table(per_ds, 3), "")
writeLines(lines, out_file)
cat(paste(lines, collapse = "\n"), "\n")
