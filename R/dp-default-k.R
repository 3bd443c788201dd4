# The number of clusters of DP-means, RDP-means and kernel RDP-means when
# neither `k` nor `lambda` is given: chosen by held-out side information, or
# by BIC for DP-means without side information. See ?rdp_means, section
# "Number of clusters".

default_k_folds <- 5L

# The largest number of clusters the default choice scores.
default_k_max <- function(n) as.integer(min(n, 20L))

# Held-out side information: the pairs (or the labelled points) are split into
# `folds` parts; for each part and every k in 1..k_max the method is fitted
# with k clusters on the other parts' side information and scored by the
# balanced agreement with the held-out pairs (the mean of the kept must-link
# and kept cannot-link fractions, confidence-weighted); a k that no lambda
# reaches in a fold is left unscored there. The chosen k is the
# smallest whose mean score is within one standard error (over the folds) of
# the best k's (the one-standard-error rule of Breiman et al. 1984); then the
# full side information is fitted with that k.
# fit_side(lambda, side) fits at lambda with side information `side`;
# start_for_k(k) is the heuristic lambda the search for k starts from.
choose_k_heldout <- function(fit_side, side, n, start_for_k, k_max = default_k_max(n),
                             folds = default_k_folds) {
  split <- split_side_folds(side, folds)
  folds <- length(split)
  state <- random_state()
  max_fits <- lambda_search_max_fits()
  ks <- seq_len(k_max)
  score <- matrix(NA_real_, folds, k_max)
  step <- progressr::progressor(steps = folds)
  for (v in seq_len(folds)) {
    train <- split[[v]]$train
    fitter <- lambda_fitter(function(lambda) fit_side(lambda, train), state)
    for (k in ks) {
      i <- search_lambda_index(fitter, k, start_for_k(k), max_fits)
      fit <- fitter$fits[[i]]
      # a k no lambda reached in this fold is not scored: the nearest count's
      # score would be credited to a k the final search may not reach either
      if (fit$k == k) score[v, k] <- heldout_agreement(split[[v]], fit$cluster)
    }
    step()
  }
  mean_score <- colMeans(score, na.rm = TRUE)
  ok <- is.finite(mean_score)
  if (!any(ok)) {
    stop("the side information has no pairs to hold out; give `k` or `lambda`", call. = FALSE)
  }
  best <- which.max(mean_score)
  se <- stats::sd(score[, best], na.rm = TRUE) / sqrt(sum(!is.na(score[, best])))
  if (!is.finite(se)) se <- 0
  chosen <- min(ks[ok & mean_score >= mean_score[best] - se])
  restore_rng(state)
  fit <- fit_for_k(function(lambda) fit_side(lambda, side), chosen, start_for_k(chosen),
                   sprintf("k = %d, chosen by held-out side information", chosen))
  fit$k_method <- "held-out side information"
  fit$k_selection <- list(k = ks, score = mean_score, fold_score = score,
                          folds = folds, standard_error = se, chosen = chosen)
  fit
}

# The side information split into folds: list of (train side, held-out part).
split_side_folds <- function(side, folds) {
  if (inherits(side, "sideclust_labels")) {
    labelled <- which(!is.na(side$labels))
    folds <- min(folds, length(labelled))
    if (folds < 2L) return(list())
    fold <- sample(rep_len(seq_len(folds), length(labelled)))
    return(lapply(seq_len(folds), function(v) {
      train <- side
      train$labels[labelled[fold == v]] <- NA_integer_
      list(train = train, all = side)
    }))
  }
  m <- length(side$i)
  folds <- min(folds, m)
  if (folds < 2L) return(list())
  fold <- sample(rep_len(seq_len(folds), m))
  lapply(seq_len(folds), function(v) {
    keep <- fold != v
    train <- new_constraints(side$n, side$i[keep], side$j[keep], side$must[keep],
                             side$confidence[keep], sorted = TRUE)
    list(train = train, held = which(!keep), all = side)
  })
}

# Balanced agreement of a partition with a fold's held-out side information.
heldout_agreement <- function(part, cluster) {
  side <- part$all
  if (inherits(side, "sideclust_labels")) {
    # the pairs with at least one held-out labelled point: all labelled pairs
    # minus those between training labels
    all <- side_agreement_table(side, cluster)
    kept <- side_agreement_table(part$train, cluster)
    total <- all$weight - kept$weight
    satisfied <- total - (all$weight_violated - kept$weight_violated)
  } else {
    h <- part$held
    same <- cluster[side$i[h]] == cluster[side$j[h]]
    ok <- side$must[h] == same
    w <- side$confidence[h]
    must <- side$must[h]
    total <- c(sum(w[must]), sum(w[!must]))
    satisfied <- c(sum(w[must & ok]), sum(w[!must & ok]))
  }
  has <- total > 0
  if (!any(has)) return(NA_real_)
  mean(satisfied[has] / total[has])
}

# DP-means without side information: the k in 1..k_max (each fitted by the
# lambda search) with the lowest BIC of a mixture of spherical Gaussians with
# one shared variance, the model whose small-variance limit DP-means is.
choose_k_bic <- function(fit_lambda, data, start_for_k, k_max) {
  state <- random_state()
  fitter <- lambda_fitter(fit_lambda, state)
  max_fits <- lambda_search_max_fits()
  n <- n_points(data$x)
  p <- n_coordinates(data$x)
  ks <- seq_len(k_max)
  bic <- rep(NA_real_, k_max)
  index <- rep(NA_integer_, k_max)
  for (k in ks) {
    i <- search_lambda_index(fitter, k, start_for_k(k), max_fits)
    fit <- fitter$fits[[i]]
    if (fit$k != k) next
    index[k] <- i
    bic[k] <- spherical_bic(fit, n, p)
  }
  if (all(is.na(bic))) stop("no lambda gave 1 to ", k_max, " clusters; give `k` or `lambda`", call. = FALSE)
  chosen <- which.min(bic)
  fit <- fitter$fits[[index[chosen]]]
  fit$lambda_search <- list(k = chosen, found = TRUE, fits = length(fitter$lambda),
                            lambdas = fitter$lambda, counts = fitter$k)
  fit$k_method <- "bic"
  fit$k_selection <- list(k = ks, bic = bic, chosen = chosen)
  fit
}

# BIC of a fit's partition as a mixture of spherical Gaussians with a shared
# variance: -2 log-likelihood at the maximum-likelihood variance and weights,
# plus (k p means + k - 1 weights + 1 variance) log n.
spherical_bic <- function(fit, n, p) {
  sse <- final_value(fit$objective) - fit$lambda * fit$k  # the data term
  size <- tabulate(fit$cluster, fit$k)
  loglik <- -n * p / 2 * (log(2 * pi * max(sse, .Machine$double.xmin) / (n * p)) + 1) +
    sum(size * log(size / n))
  -2 * loglik + (fit$k * p + fit$k) * log(n)
}
