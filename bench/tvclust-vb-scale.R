# Variational TVClust at scale: a default fit, tvclust(x, side, method =
# "variational"), on n = 1e4 to 1e6 points (p = 10, ten Gaussian clusters,
# about n pairs from sample_constraints()), with stats::kmeans (Lloyd, the
# true k, 10 restarts-free iterations from k-means++-free random centres) in
# the same run; wall-clock and processor time, sweeps (full and trial),
# clusters, F-measure and peak resident memory, each (method, n) in a fresh
# process.
#
#   Rscript bench/tvclust-vb-scale.R
#   BENCH_N=1e4,1e5 Rscript bench/tvclust-vb-scale.R
#
# Results: bench/results/tvclust-vb-scale.md (section "default-fit").

p_dim <- 10L
source("bench/scale-methods.R")

child <- function(name, n) {
  suppressPackageStartupMessages(library(sideclust))
  d <- make_data(n, FALSE)
  invisible(gc())
  base <- status_mb("VmRSS")
  writeLines("5", "/proc/self/clear_refs")  # reset VmHWM
  t <- system.time(fit <- switch(name,
    tvclust_vb = tvclust(d$x, d$side, method = "variational"),
    kmeans = {
      set.seed(2)
      stats::kmeans(d$x, k_true, iter.max = 100L, algorithm = "Lloyd")
    }))
  peak <- status_mb("VmHWM") - base
  cluster <- fit$cluster
  rec <- list(method = name, n = n, elapsed = t[["elapsed"]],
              cpu = t[["user.self"]] + t[["sys.self"]],
              sweeps = if (is.null(fit$sweeps)) fit$iter else fit$sweeps,
              full_sweeps = if (is.null(fit$iterations)) fit$iter else fit$iterations,
              k = length(unique(cluster)), f = f_measure(d$y, cluster), peak_mb = peak)
  write.dcf(as.data.frame(lapply(rec, as.character)))
}

args <- commandArgs(TRUE)
if (length(args) == 3L && args[1] == "--child") {
  child(args[2], as.numeric(args[3]))
  quit(save = "no")
}

source("bench/utils.R")
script <- "bench/tvclust-vb-scale.R"
ns <- as.numeric(strsplit(Sys.getenv("BENCH_N", "1e4,1e5,1e6"), ",")[[1]])
rows <- list()
started <- Sys.time()
for (n in ns) for (name in c("kmeans", "tvclust_vb")) {
  out <- system2("Rscript", c(script, "--child", name, format(n, scientific = FALSE)),
                 stdout = TRUE, stderr = FALSE)
  rec <- read.dcf(textConnection(out))
  rows[[length(rows) + 1L]] <- as.data.frame(rec, stringsAsFactors = FALSE)
  message(paste(out, collapse = " "))
}
tab <- do.call(rbind, rows)
num <- setdiff(names(tab), "method")
tab[num] <- lapply(tab[num], as.numeric)
vb <- tab[tab$method == "tvclust_vb", ]
slope <- function(t) if (nrow(vb) > 1L) unname(coef(lm(log(t) ~ log(vb$n)))[2]) else NA
exponent <- slope(vb$elapsed)
exponent_sweep <- slope(vb$elapsed / vb$sweeps)
lines <- c(bench_header(bench_command(script, "BENCH_N"),
                        shared_cores = nzchar(Sys.getenv("BENCH_SHARED")),
                        command_note = sprintf("; total %.0f s",
                                               as.numeric(Sys.time() - started, units = "secs"))),
  "",
  sprintf(paste0("- Default variational fit: %s s at the largest n (%g); exponent in n of the ",
                 "whole fit's time %s, of its time per sweep (full and trial sweeps together) %s."),
          fmt(vb$elapsed[nrow(vb)], 1), vb$n[nrow(vb)], fmt(exponent), fmt(exponent_sweep)),
  "",
  "| method | n | elapsed s | cpu s | sweeps (all) | full sweeps | k | F | peak MB |",
  "|---|---|---|---|---|---|---|---|---|",
  sprintf("| %s | %g | %s | %s | %d | %d | %d | %s | %s |", tab$method, tab$n, fmt(tab$elapsed),
          fmt(tab$cpu), as.integer(tab$sweeps), as.integer(tab$full_sweeps), as.integer(tab$k),
          fmt(tab$f, 3), fmt(tab$peak_mb, 0)))
out <- "bench/results/tvclust-vb-scale.md"
write_md_section(out, "default-fit", lines, bench_preamble("# Variational TVClust at scale", script))
cat(lines, sep = "\n")
