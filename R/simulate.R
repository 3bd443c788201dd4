# The papers' protocols for simulated side information.

#' Simulate pairwise constraints from true classes
#'
#' Draws noisy must-link / cannot-link pairs from a known classification, as
#' in the experiments of two papers. Uses R's random number generator, so
#' `set.seed()` makes the result reproducible.
#'
#' **`protocol = "tvclust"`** (Khashabi et al., Section 5): pairs are drawn at
#' random; a pair's type is must-link when both points share a class and each
#' type is flipped with probability `noise`. All confidences are 1.
#' The paper defines the rate `r` as "the number of +-1 elements in the E
#' matrix normalized by its size". `pair_count = "authors"` reproduces the
#' authors' public code: `round(rate * n^2)` ordered pairs `(i, j)`, `i != j`,
#' drawn uniformly with replacement, each writing both `E[i, j]` and
#' `E[j, i]`, so a pair drawn twice keeps its last draw and the result has
#' about `rate * n^2` distinct pairs (about twice the paper's wording).
#' `pair_count = "paper"` follows the wording: `round(rate * n^2 / 2)` distinct
#' unordered pairs drawn without replacement.
#'
#' **`protocol = "nelson_cohen"`** (Nelson & Cohen, Section 5.1): "we generate
#' each must-link by randomly selecting a cluster and uniformly selecting two
#' unique points in that cluster"; "for a cannot-link, two unique clusters are
#' selected at random and a point is randomly selected from each". Classes
#' with fewer than 2 points are never chosen for a must-link. A pair drawn
#' again is redrawn, so the pairs are distinct. Then exactly
#' `round(noise * total)` constraints, chosen at random, get their type
#' flipped, and each constraint gets a confidence P ~ Beta(`confidence_shape`,
#' 1) if correct and Beta(1, `confidence_shape`) if wrong (the paper uses 5),
#' clamped to \[1e-9, 1 - 1e-9\] so that penalty weights `-log(1 - P)` stay
#' finite. The paper's experiments use equal numbers of both types ("50
#' Must-links, 50 Cannot-links", "400 Must-links, 400 Cannot-links" for its
#' 100 and 800 constraints), hence the convenience `n_constraints` with
#' `must_fraction = 0.5`.
#'
#' @param y The true classes: a vector or factor without `NA`.
#' @param protocol `"tvclust"` or `"nelson_cohen"`.
#' @param rate For `"tvclust"`: the side-information rate r (the paper uses
#'   0.01, 0.03, 0.05).
#' @param noise The share of wrong constraints, as `noise` in
#'   [sample_labels()]. For `"tvclust"`: the probability that a pair's type is
#'   flipped, 1 - p in Khashabi et al. (2015), who use p = 1, .95, .9, .8. For
#'   `"nelson_cohen"`: the fraction E of constraints whose type is flipped
#'   (exactly `round(noise * total)`; Nelson & Cohen (2007) use 0, .05, .1,
#'   .25).
#' @param pair_count For `"tvclust"`: `"authors"` or `"paper"`, see Details.
#' @param n_must,n_cannot For `"nelson_cohen"`: the numbers of must-links and
#'   cannot-links (before flipping).
#' @param n_constraints,must_fraction For `"nelson_cohen"`, instead of `n_must`
#'   and `n_cannot`: the total number, of which `round(must_fraction *
#'   n_constraints)` are must-links.
#' @param confidence_shape For `"nelson_cohen"`: the Beta shape (> 1).
#' @param ... Must be empty.
#' @return A `sideclust_constraints` object (see [constraints()]) with an extra
#'   logical field `correct`: whether each pair's type agrees with `y`.
#' @references Khashabi, Wieting, Liu, Liang (2015). Clustering with side
#'   information: from a probabilistic model to a deterministic algorithm.
#'   arXiv:1508.06235.
#'
#'   Nelson, Cohen (2007). Revisiting probabilistic models for clustering with
#'   pair-wise constraints. ICML.
#' @export
#' @examples
#' set.seed(1)
#' y <- iris$Species
#' side <- sample_constraints(y, "tvclust", rate = 0.01, noise = 0.1)
#' side
#' mean(side$correct)
#' side2 <- sample_constraints(y, "nelson_cohen", n_constraints = 100,
#'                             noise = 0.1)
#' tapply(side2$confidence, side2$correct, mean)
sample_constraints <- function(y, protocol = c("tvclust", "nelson_cohen"), ...,
                               rate = 0.01, noise = 0,
                               pair_count = c("authors", "paper"),
                               n_must = NULL, n_cannot = NULL,
                               n_constraints = NULL, must_fraction = 0.5,
                               confidence_shape = 5) {
  check_dots_empty(...)
  noise <- check_number(noise, "noise", lower = 0, upper = 1)
  protocol <- match_arg(protocol)
  y <- check_classes(y, "y")
  n <- length(y)
  if (n < 2L) stop_arg("y", "must have at least 2 points")
  if (protocol == "tvclust") {
    rate <- check_number(rate, "rate", lower = 0)
    sample_tvclust(y, rate, noise, match_arg(pair_count))
  } else {
    counts <- nelson_cohen_counts(n_must, n_cannot, n_constraints, must_fraction)
    shape <- check_number(confidence_shape, "confidence_shape", lower = 1,
                          lower_open = TRUE)
    sample_nelson_cohen(y, counts[1], counts[2], noise, shape)
  }
}

nelson_cohen_counts <- function(n_must, n_cannot, n_constraints, must_fraction) {
  if (!is.null(n_constraints)) {
    if (!is.null(n_must) || !is.null(n_cannot)) {
      stop_arg("n_constraints", "cannot be combined with `n_must` / `n_cannot`")
    }
    n_constraints <- check_count(n_constraints, "n_constraints", lower = 0L)
    must_fraction <- check_number(must_fraction, "must_fraction", 0, 1)
    n_must <- round(must_fraction * n_constraints)
    return(c(n_must, n_constraints - n_must))
  }
  if (is.null(n_must) && is.null(n_cannot)) {
    stop_arg("n_must", "and `n_cannot` (or `n_constraints`) are needed for ",
             "protocol = \"nelson_cohen\"")
  }
  c(if (is.null(n_must)) 0L else check_count(n_must, "n_must", lower = 0L),
    if (is.null(n_cannot)) 0L else check_count(n_cannot, "n_cannot", lower = 0L))
}

sample_tvclust <- function(y, rate, noise, pair_count) {
  n <- length(y)
  if (pair_count == "authors") {
    # In C++, with the same draws of R's generator as sample.int(n, m, TRUE),
    # sample.int(n - 1, m, TRUE) and runif(m) in that order; E[i, j] and
    # E[j, i] are overwritten in draw order, so the last draw of a pair wins.
    m <- round(rate * n^2)
    if (m > .Machine$integer.max) {
      stop_arg("rate", sprintf("asks for %s draws; at most %d are supported",
                               format(m), .Machine$integer.max))
    }
    s <- .sample_pairs_cpp(as.integer(y), nlevels(y), m, noise)
    return(new_constraints(n, s$i, s$j, s$must, rep(1, length(s$i)),
                           correct = s$correct, sorted = TRUE))
  } else {
    n_all <- choose(n, 2)
    m <- round(rate * n^2 / 2)
    if (m > n_all) {
      stop_arg("rate", sprintf(paste0("asks for %s pairs but %d points have only ",
                                      "choose(%d, 2) = %s"),
                               format(m), n, n, format(n_all)))
    }
    pairs <- pair_from_index(sample.int(n_all, m) - 1)
    lo <- pairs$i
    hi <- pairs$j
    flip <- stats::runif(m) > 1 - noise
  }
  code <- as.integer(y)  # comparing factors would compare their labels as strings
  truth <- code[lo] == code[hi]
  new_constraints(n, lo, hi, xor(truth, flip), rep(1, length(lo)),
                  correct = !flip, sorted = TRUE)
}

# 0-based index k over the upper triangle, ordered by j then i:
# k = (j - 1)(j - 2) / 2 + (i - 1) for 1 <= i < j.
pair_from_index <- function(k) {
  j0 <- floor((1 + sqrt(1 + 8 * k)) / 2)
  j0 <- j0 - (j0 * (j0 - 1) / 2 > k)
  j0 <- j0 + ((j0 + 1) * j0 / 2 <= k)
  i <- k - j0 * (j0 - 1) / 2 + 1
  ord <- order(i, j0)
  list(i = as.integer(i[ord]), j = as.integer(j0[ord] + 1))
}

sample_nelson_cohen <- function(y, n_must, n_cannot, noise, shape) {
  n <- length(y)
  code <- as.integer(y)
  sizes <- tabulate(code, nbins = nlevels(y))
  members <- order(code)               # points grouped by class
  offset <- cumsum(c(0L, sizes))[seq_along(sizes)]
  pick <- function(cls, exclude = NULL) {
    s <- sizes[cls]
    if (is.null(exclude)) {
      r <- floor(stats::runif(length(cls)) * s) + 1
    } else {
      r <- floor(stats::runif(length(cls)) * (s - 1)) + 1
      r <- r + (r >= exclude)
    }
    r
  }
  present <- which(sizes >= 1L)
  eligible <- which(sizes >= 2L)
  max_must <- sum(choose(sizes, 2))
  max_cannot <- choose(n, 2) - max_must
  if (n_must > 0 && length(eligible) == 0L) {
    stop_arg("y", "has no class with 2 points, so no must-link can be drawn")
  }
  if (n_cannot > 0 && length(present) < 2L) {
    stop_arg("y", "has a single class, so no cannot-link can be drawn")
  }
  if (n_must > max_must) {
    stop_arg("n_must", sprintf("is %d but only %s distinct must-link pairs exist",
                               n_must, format(max_must)))
  }
  if (n_cannot > max_cannot) {
    stop_arg("n_cannot", sprintf("is %d but only %s distinct cannot-link pairs exist",
                                 n_cannot, format(max_cannot)))
  }
  draw_must <- function(m) {
    cls <- eligible[sample.int(length(eligible), m, replace = TRUE)]
    ra <- pick(cls)
    rb <- pick(cls, exclude = ra)
    cbind(members[offset[cls] + ra], members[offset[cls] + rb])
  }
  draw_cannot <- function(m) {
    k <- length(present)
    ca <- sample.int(k, m, replace = TRUE)
    cb <- sample.int(k - 1L, m, replace = TRUE)
    cb <- cb + (cb >= ca)
    ca <- present[ca]
    cb <- present[cb]
    cbind(members[offset[ca] + pick(ca)], members[offset[cb] + pick(cb)])
  }
  must_pairs <- draw_distinct(draw_must, n_must)
  cannot_pairs <- draw_distinct(draw_cannot, n_cannot)
  total <- n_must + n_cannot
  wrong <- rep(FALSE, total)
  wrong[sample.int(total, round(noise * total))] <- TRUE
  must <- xor(rep(c(TRUE, FALSE), c(n_must, n_cannot)), wrong)
  conf <- numeric(total)
  conf[!wrong] <- stats::rbeta(sum(!wrong), shape, 1)
  conf[wrong] <- stats::rbeta(sum(wrong), 1, shape)
  conf <- pmin(pmax(conf, 1e-9), 1 - 1e-9)
  new_constraints(n, c(must_pairs[, 1], cannot_pairs[, 1]),
                  c(must_pairs[, 2], cannot_pairs[, 2]), must, conf,
                  correct = !wrong)
}

# Draw m distinct unordered pairs with `draw(k)` (a k x 2 matrix), redrawing
# duplicates in vectorized rounds. Keeps draw order.
draw_distinct <- function(draw, m, max_rounds = 10000L) {
  pairs <- matrix(integer(0), 0L, 2L)
  rounds <- 0L
  while (nrow(pairs) < m) {
    rounds <- rounds + 1L
    if (rounds > max_rounds) {
      stop(sprintf(paste0("could not draw %d distinct pairs in %d rounds; ",
                          "ask for fewer constraints"), m, max_rounds),
           call. = FALSE)
    }
    new <- draw(m - nrow(pairs))
    new <- cbind(pmin(new[, 1], new[, 2]), pmax(new[, 1], new[, 2]))
    pairs <- rbind(pairs, new)
    # a double key is exact while n^2 < 2^53; fall back to rows otherwise
    dup <- if (max(pairs) < 9e7) {
      duplicated(pairs[, 1] * 1e8 + pairs[, 2])
    } else {
      duplicated(pairs)
    }
    pairs <- pairs[!dup, , drop = FALSE]
  }
  pairs
}

#' Simulate partial labels from true classes
#'
#' The protocol of the CEC-IB paper (Smieja & Geiger, Section 5): "choosing 0%,
#' 10%, 20%, and 30% of the data points and labeling them according to their
#' class"; noise: "assign incorrect labels for a fixed percentage of them";
#' few classes: "we randomly selected two classes from a reference grouping
#' that covered at least 30% of data in total and generated the
#' partition-level side information from these two categories (the same
#' classes were used for all percentages of side information)".
#'
#' Exactly `round(fraction * n)` points are labelled, drawn uniformly. With
#' `classes` or `n_classes`, they are drawn among the points of those classes
#' only, and `fraction` stays a fraction of **all** n points: this is why the
#' paper asks the two classes to cover at least 30% of the data, the largest
#' fraction it labels. Exactly `round(noise * n_labelled)` of the labelled
#' points, chosen at random, get a wrong label drawn uniformly from the other
#' classes (the chosen classes when `classes` / `n_classes` is used, else all
#' classes present in `y`). To reuse the same classes for several fractions,
#' as the paper does, pass `classes = first$classes`.
#'
#' @param y The true classes: a vector or factor without `NA`.
#' @param fraction The fraction of all points to label, in \[0, 1\].
#' @param noise The fraction of labelled points given a wrong label.
#' @param classes Optional: the classes (values of `y`) to take labels from.
#' @param n_classes Optional: draw this many classes at random, uniformly
#'   among the sets of that size covering at least `min_coverage` of the data.
#' @param min_coverage For `n_classes`: the smallest fraction of points the
#'   chosen classes must hold together.
#' @return A `sideclust_labels` object (levels are the classes of `y`) with
#'   extra fields `correct` (logical, `NA` for unlabelled points) and
#'   `classes` (the classes labels were drawn from).
#' @references Smieja, Geiger. Semi-supervised cross-entropy clustering with
#'   information bottleneck constraint (CEC-IB).
#' @export
#' @examples
#' set.seed(1)
#' lab <- sample_labels(iris$Species, fraction = 0.2, noise = 0.1)
#' lab
#' few <- sample_labels(iris$Species, fraction = 0.3, n_classes = 2)
#' few$classes
#' sample_labels(iris$Species, fraction = 0.1, classes = few$classes)
sample_labels <- function(y, fraction, noise = 0, classes = NULL,
                          n_classes = NULL, min_coverage = 0.3) {
  y <- check_classes(y, "y")
  n <- length(y)
  fraction <- check_number(fraction, "fraction", 0, 1)
  noise <- check_number(noise, "noise", 0, 1)
  sizes <- tabulate(as.integer(y), nbins = nlevels(y))
  if (!is.null(classes) && !is.null(n_classes)) {
    stop_arg("classes", "cannot be combined with `n_classes`")
  }
  if (!is.null(classes)) {
    chosen <- match(as.character(classes), levels(y))
    if (anyNA(chosen)) {
      stop_arg("classes", "has values that are not classes of `y`: ",
               paste(as.character(classes)[is.na(chosen)], collapse = ", "))
    }
    chosen <- sort(unique(chosen))
  } else if (!is.null(n_classes)) {
    chosen <- choose_classes(sizes, check_count(n_classes, "n_classes"),
                             check_number(min_coverage, "min_coverage", 0, 1))
  } else {
    chosen <- which(sizes > 0L)
  }
  pool <- which(as.integer(y) %in% chosen)
  n_lab <- round(fraction * n)
  if (n_lab > length(pool)) {
    stop_arg("fraction", sprintf(paste0(
      "asks for %d labelled points but the chosen classes hold only %d"),
      n_lab, length(pool)))
  }
  lab <- pool[sample.int(length(pool), n_lab)]
  codes <- rep(NA_integer_, n)
  codes[lab] <- as.integer(y)[lab]
  n_wrong <- round(noise * n_lab)
  wrong <- lab[sample.int(n_lab, n_wrong)]
  targets <- chosen[sizes[chosen] > 0L]
  if (n_wrong > 0) {
    if (length(targets) < 2L) {
      stop_arg("noise", "needs at least 2 classes to draw wrong labels from")
    }
    r <- sample.int(length(targets) - 1L, n_wrong, replace = TRUE)
    pos <- match(codes[wrong], targets)
    codes[wrong] <- targets[r + (r >= pos)]
  }
  correct <- rep(NA, n)
  correct[lab] <- TRUE
  correct[wrong] <- FALSE
  new_labels(n, codes, levels(y), correct = correct, classes = levels(y)[chosen])
}

# Indices of n_classes classes drawn uniformly among the sets covering at least
# min_coverage of the points.
choose_classes <- function(sizes, n_classes, min_coverage) {
  k <- length(sizes)
  n <- sum(sizes)
  if (n_classes > k) {
    stop_arg("n_classes", sprintf("is %d but `y` has only %d classes", n_classes, k))
  }
  best <- sum(sort(sizes, decreasing = TRUE)[seq_len(n_classes)])
  if (best < min_coverage * n) {
    stop_arg("min_coverage", sprintf(paste0(
      "is %s but the %d largest classes of `y` cover only %s of the points"),
      format(min_coverage), n_classes, format(round(best / n, 3))))
  }
  if (choose(k, n_classes) <= 1e5) {
    sets <- utils::combn(k, n_classes)
    cover <- colSums(matrix(sizes[sets], nrow = n_classes))
    ok <- which(cover >= min_coverage * n)
    return(sets[, ok[sample.int(length(ok), 1L)]])
  }
  for (attempt in seq_len(1e5)) {
    set <- sample.int(k, n_classes)
    if (sum(sizes[set]) >= min_coverage * n) return(sort(set))
  }
  stop_arg("min_coverage", "is met by too few sets of classes to find one by ",
           "random search; name them with `classes`")
}

#' Simulate two-dimensional patterns with known clusters
#'
#' The kind of toy data of Khashabi et al. (2015, Section 5.1, Figure 2):
#' shapes that k-means-like methods find hard. Uses R's random number
#' generator, so `set.seed()` makes the result reproducible. The `n` points
#' are split as evenly as possible between the clusters (the first clusters
#' get one more), in cluster order.
#'
#' * `"moons"`: two interleaving half circles of radius 1 (2 clusters).
#' * `"rings"`: two concentric circles of radius 1 and 2.5 (2 clusters).
#' * `"spirals"`: two interleaved arms of an Archimedean spiral, each of
#'   one and a half turns out to radius 3 (2 clusters).
#' * `"blobs"`: three round Gaussian clusters of standard deviations 0.2,
#'   0.5 and 1 at (0, 0), (3, 0) and (1.5, 3) (3 clusters).
#' * `"elongated"`: three parallel stretched Gaussian clusters (standard
#'   deviation 2 along the first axis, 0.25 across), 1 apart (3 clusters).
#' * `"nested"`: a Gaussian blob of standard deviation 0.3 inside a ring of
#'   radius 2 (2 clusters).
#'
#' `noise` is the standard deviation of the Gaussian jitter added to both
#' coordinates of the curve-shaped patterns (moons, rings, spirals and the
#' ring of nested); the blob-shaped clusters have their own spread.
#'
#' @param n Number of points, at least the number of clusters.
#' @param pattern One of `"moons"`, `"rings"`, `"spirals"`, `"blobs"`,
#'   `"elongated"`, `"nested"`.
#' @param noise Standard deviation of the jitter of curve-shaped clusters.
#' @return A list with `x`, an `n` x 2 matrix (columns `x1`, `x2`), `label`,
#'   the integer true cluster of every point, and `pattern`.
#' @references Khashabi, D., Wieting, J., Liu, J. Y. and Liang, F. (2015).
#'   Clustering with side information: from a probabilistic model to a
#'   deterministic algorithm. arXiv:1508.06235.
#' @seealso [sample_constraints()] to draw side information from `label`,
#'   [kernel_rdp_means()].
#' @examples
#' set.seed(1)
#' d <- simulate_patterns(300, "moons")
#' plot(d$x, col = d$label, asp = 1)
#' table(d$label)
#' @export
simulate_patterns <- function(n, pattern = c("moons", "rings", "spirals", "blobs",
                                             "elongated", "nested"),
                              noise = 0.1) {
  pattern <- match_arg(pattern)
  k <- if (pattern %in% c("blobs", "elongated")) 3L else 2L
  n <- check_count(n, "n", lower = k)
  noise <- check_number(noise, "noise", lower = 0)
  size <- rep(n %/% k, k) + (seq_len(k) <= n %% k)
  label <- rep(seq_len(k), size)
  jitter <- function(m) matrix(stats::rnorm(2 * m, sd = noise), m, 2)
  gauss <- function(m, centre, sd) {
    cbind(stats::rnorm(m, centre[1], sd[1]), stats::rnorm(m, centre[2], sd[length(sd)]))
  }
  arc <- function(m, radius, from, to, centre = c(0, 0)) {
    t <- stats::runif(m, from, to)
    cbind(centre[1] + radius * cos(t), centre[2] + radius * sin(t)) + jitter(m)
  }
  parts <- switch(pattern,
    moons = list(arc(size[1], 1, 0, pi), arc(size[2], 1, pi, 2 * pi, c(1, 0.5))),
    rings = list(arc(size[1], 1, 0, 2 * pi), arc(size[2], 2.5, 0, 2 * pi)),
    spirals = lapply(1:2, function(arm) {
      t <- sqrt(stats::runif(size[arm])) * 3 * pi  # even density along the arm
      r <- 3 * t / (3 * pi)
      phase <- (arm - 1) * pi
      cbind(r * cos(t + phase), r * sin(t + phase)) + jitter(size[arm])
    }),
    blobs = list(gauss(size[1], c(0, 0), 0.2), gauss(size[2], c(3, 0), 0.5),
                 gauss(size[3], c(1.5, 3), 1)),
    elongated = lapply(1:3, function(c) gauss(size[c], c(0, c - 2), c(2, 0.25))),
    nested = list(gauss(size[1], c(0, 0), 0.3), arc(size[2], 2, 0, 2 * pi)))
  x <- do.call(rbind, parts)
  dimnames(x) <- list(NULL, c("x1", "x2"))
  list(x = x, label = label, pattern = pattern)
}
