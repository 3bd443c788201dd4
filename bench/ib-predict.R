# predict() of the information-bottleneck and co-clustering fits on held-out
# rows: how well new rows are placed, and what it costs next to a pass of the
# fitting algorithm over as many rows.
#
# Run from the repository root, with sideclust installed:
#   Rscript bench/ib-predict.R
# It writes bench/results/ib-predict.md.
#
# Setup
# * planted partition as in bench/info-bottleneck.R: k = 10 row groups, the
#   m columns cut into 10 blocks; each row draws `per_row` column indices,
#   each from its group's block with probability 1 - noise, else uniformly;
#   sparse dgCMatrix. n = 2e4 rows x m = 5e3 columns, per_row = 50, noise
#   0.5 and 0.7; half the rows (random) are fitted, the other half predicted.
# * fits: sib(k = 10, restarts = 3), ib(k = 10, beta = 50, restarts = 1)
#   from 5,000 of the fitted rows (a soft fit costs O(nnz k) per iteration
#   and needs many), itcc(10, 10, restarts = 3).
# * quality: NMI ("sqrt") of the predicted clusters of the held-out rows with
#   their planted groups (over the rows predict() could place), next to the
#   NMI of the fit on its own rows, and the share of held-out rows left NA
#   (KL rules: every cluster gives probability 0 to one of their words).
# * speed: median over 5 repeats of predict() on the 1e4 held-out rows; the
#   peer is sib's own median pass time on the 1e4 fitted rows (the same
#   O(nnz k) work for as many rows), measured in the same run.

library(sideclust)
source(file.path("bench", "utils.R"))

out_file <- file.path("bench", "results", "ib-predict.md")
command <- bench_command("bench/ib-predict.R")
k <- 10L

planted <- function(n, m, per_row, noise, seed) planted_sparse_rows(n, m, per_row, noise, seed, k)

median_time <- function(expr_fn, repeats = 5L) {
  stats::median(vapply(seq_len(repeats), function(i) system.time(expr_fn())[["elapsed"]], 0))
}

rows <- NULL
for (noise in c(0.5, 0.7)) {
  d <- planted(2e4, 5e3, 50, noise, seed = 3)
  set.seed(4)
  fitted_rows <- sort(sample.int(2e4, 1e4))
  held_out <- setdiff(seq_len(2e4), fitted_rows)
  x_fit <- d$x[fitted_rows, ]
  x_new <- d$x[held_out, ]
  set.seed(5)
  fits <- list(sib = sib(x_fit, k, restarts = 3L),
               ib = ib(x_fit[1:5000, ], k, beta = 50, restarts = 1L, max_iter = 300L),
               itcc = itcc(x_fit, k, k, restarts = 3L))
  pass <- stats::median(fits$sib$pass_seconds)
  for (name in names(fits)) {
    fit <- fits[[name]]
    own_truth <- if (name == "ib") d$truth[fitted_rows][1:5000] else d$truth[fitted_rows]
    pred <- suppressWarnings(predict(fit, x_new))
    t_pred <- median_time(function() suppressWarnings(predict(fit, x_new)))
    placed <- !is.na(pred$cluster)
    rows <- rbind(rows, data.frame(
      noise = noise, method = name, nmi_fitted_rows = nmi(fit$cluster, own_truth),
      nmi_predicted_rows = nmi(pred$cluster[placed], d$truth[held_out][placed]),
      share_na = mean(!placed),
      predict_s = t_pred, sib_pass_s = pass, ratio = t_pred / pass))
  }
}
print(rows, digits = 3)

lines <- c("# predict() of the information-bottleneck and co-clustering fits", "",
           "Written by `bench/ib-predict.R`.", "",
           bench_header(command), "",
           sprintf(paste("Planted partition, 20,000 rows x 5,000 columns, 50 draws per row (%s",
                         "non-zeros at noise 0.7); 10,000 rows fitted, the other 10,000 predicted."),
                   format(length(planted(2e4, 5e3, 50, 0.7, 3)$x@x), big.mark = ",")),
           "`ib` is fitted on 5,000 of the fitted rows. Times are medians of 5 predict() calls on",
           "the 10,000 held-out rows; the peer is sib's median pass over the 10,000 fitted rows,",
           "measured in the same run.", "",
           md_table(rows, digits = 3), "")
writeLines(lines, out_file)
