#' COP-k-means: k-means with hard constraints
#'
#' Wagstaff, Cardie, Rogers & Schroedl's constrained k-means: every
#' must-link and every cannot-link is hard. Points joined by must-links move
#' together, and a group of them may only join a cluster that holds no point
#' it is cannot-linked to. The confidences of the side information are
#' ignored: every pair is a hard constraint, whatever its confidence.
#'
#' @section Objective:
#' The fit minimizes the within-cluster sum of squares
#' \deqn{W = \sum_i \|x_i - c_{z_i}\|^2}{W = sum_i ||x_i - c_zi||^2}
#' over the assignments that keep every constraint (without the factor 1/2
#' that [cvqe()] and [lcvqe()] put in front of theirs), so `within` equals
#' `tot.withinss` of [stats::kmeans()].
#'
#' @section Algorithm:
#' The must-links are closed under transitivity first (union-find): their
#' connected components ("chunklets") are the units that move. A cannot-link
#' between two points of one component makes the problem infeasible: with
#' `infeasible = "error"`, `cop_kmeans()` stops before any run with an error
#' that names the two points and the chain of must-links joining them; with
#' `infeasible = "nearest"` such a cannot-link is broken whatever the
#' assignment, and is reported in `violations` with the others (noisy
#' pairs often chain a wrong must-link into a group). Then, from the initial
#' centres, two steps alternate.
#' * **Assignment.** In the first step every component, in the visit order,
#'   goes to the nearest centre (the sum over its points of squared
#'   distances, i.e. its size times the squared distance of its mean) among
#'   the clusters that hold no component it is cannot-linked to among those
#'   already assigned (Wagstaff et al.'s greedy step). Later steps are
#'   iterated conditional modes from the current feasible state: each
#'   component in turn moves to the nearest feasible centre, given the
#'   clusters of all the others, when that one is strictly nearer than its
#'   own. Its own cluster is always feasible, so `W` never increases.
#' * **Centres** are the cluster means; a cluster left empty keeps its centre.
#'
#' `order = "random"` visits the components in a fresh random order in every
#' step (drawn from R's generator): a uniformly random permutation, or on
#' large data blocks of consecutive components in a random order, each block
#' in storage order, so that memory access stays local. `"data"` visits them by their first point's row. A run
#' stops when an assignment step moves no point (`converged = TRUE`); the
#' final assignment is then a local optimum among feasible single-component
#' moves at the final centres. Without side information this is Lloyd's
#' k-means.
#'
#' When a component finds no feasible cluster in the first step (every
#' cluster holds a point it is cannot-linked to; the greedy step can fail even
#' when a feasible partition exists), `infeasible = "error"` abandons that run.
#' Of `restarts` runs, the best successful one is kept; if all fail, the error
#' names the points of the component and the cannot-links that block it. With
#' `infeasible = "nearest"` the component instead takes the centre that breaks
#' the fewest cannot-links (ties by distance), and later steps compare moves
#' by broken cannot-links first and then distance, so that pair never
#' increases; `violated` and `violations` report the broken pairs. Of
#' `restarts` runs the one with the fewest broken cannot-links, then the
#' lowest `W`, is kept. Clusters empty at the end are dropped and the others
#' renumbered consecutively.
#'
#' @inheritParams cvqe
#' @param side Pairwise side information: `NULL`, a [constraints()] object,
#'   a TVClust matrix E, a data.frame of pairs, or partial labels (expanded
#'   into all labelled pairs, at most `max_pairs`); see [as_constraints()].
#'   All pairs are hard; confidences are ignored.
#' @param restarts Number of runs from different seeds (and visit orders);
#'   the best feasible one is kept. Ignored (1) with `start`.
#' @param verbose Print the within-cluster sum of squares after every
#'   iteration.
#' @param order Order in which an assignment step visits the must-link
#'   components: `"random"` (a fresh blocked random order every step) or `"data"`
#'   (row order of their first point).
#' @param infeasible What to do when a component has no cluster free of its
#'   cannot-links: `"error"` (abandon the run; an error if every run fails,
#'   or before any run when a cannot-link lies inside a must-link group) or
#'   `"nearest"` (break the fewest cannot-links).
#' @return An object of class `c("cop_kmeans", "sideclust")`, a list with
#'   \item{cluster}{integer cluster of every point, `1..k`.}
#'   \item{centers}{`k` x `p` matrix of cluster means.}
#'   \item{k}{number of (non-empty) clusters.}
#'   \item{size}{points per cluster.}
#'   \item{objective}{`W` after every iteration of the run kept.}
#'   \item{within}{the final `W`.}
#'   \item{violated}{number of cannot-links broken (0 unless `infeasible =
#'     "nearest"`); must-links are never broken.}
#'   \item{violations}{data.frame of the broken cannot-links, columns `i`,
#'     `j`.}
#'   \item{iterations, converged}{iterations of the run kept and whether an
#'     assignment step moved no point before `max_iter`.}
#'   \item{restarts, failed_runs, init}{runs made, how many of them found no
#'     feasible cluster for some component, and how they were seeded.}
#'   \item{order, infeasible}{the options used.}
#'   \item{side}{the pairwise constraints used (`NULL` for none).}
#'   \item{call}{the call.}
#' @references
#' Wagstaff, K., Cardie, C., Rogers, S. and Schroedl, S. (2001). Constrained
#' k-means clustering with background knowledge. Proceedings of the 18th
#' International Conference on Machine Learning (ICML), 577-584.
#' @seealso [lcvqe()] and [cvqe()] for soft constraints,
#'   [predict.cop_kmeans()], [constraints()], [violations()].
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' side <- sample_constraints(iris$Species, "nelson_cohen", n_constraints = 60)
#' fit <- cop_kmeans(x, side, k = 3)
#' fit
#' compare_partitions(iris$Species, fit$cluster)
#'
#' # contradictory constraints: break as few cannot-links as possible
#' bad <- constraints(cannot = rbind(c(1, 2), c(1, 3), c(2, 3)), n = 150)
#' cop_kmeans(x, bad, k = 2, infeasible = "nearest")$violations
#' @export
cop_kmeans <- function(x, side = NULL, k, restarts = 10L, max_iter = 100L,
                       init = c("kmeans++", "random"), start = NULL, max_pairs = 1e6,
                       verbose = FALSE, order = c("random", "data"),
                       infeasible = c("error", "nearest")) {
  call <- match.call()
  a <- check_prototype_fit(x, side, k, start, restarts, max_iter, init, verbose, max_pairs)
  order <- match_choice(order, c("random", "data"), "order")
  infeasible <- match_choice(infeasible, c("error", "nearest"), "infeasible")
  res <- prototype_runs(a, .cop_kmeans_cpp, list(order = order, infeasible = infeasible),
                        score = cop_score)
  res$failed_runs <- sum(is.infinite(attr(res, "scores")[, 1L]))
  cop_stop_infeasible(res, a$side, a$x, a$restarts)
  broken <- res$broken
  side <- a$side
  violations <- data.frame(i = if (is.null(side)) integer() else side$i[broken],
                           j = if (is.null(side)) integer() else side$j[broken])
  fit <- prototype_fit(res, a, "cop_kmeans", call,
                       stats = list(within = res$within, violated = length(broken),
                                    violations = violations),
                       settings = list(failed_runs = res$failed_runs, order = order,
                                       infeasible = infeasible))
  finish_fit(fit, a$x, "cop_kmeans")
}

# The rank of a run: failed runs last, then fewest broken cannot-links, then
# the lowest within-cluster sum of squares (ties keep the earliest run).
cop_score <- function(res) {
  if (res$status != "ok") return(c(Inf, Inf, Inf))
  c(0, length(res$broken), res$within)
}

# The errors of an infeasible problem, from the core's status: a cannot-link
# inside a must-link component (no run made), or every run meeting a
# component with no feasible cluster.
cop_stop_infeasible <- function(res, side, x, restarts) {
  if (res$status == "ok") return(invisible())
  if (res$status == "linked_conflict") {
    a <- side$i[res$conflict]
    b <- side$j[res$conflict]
    stop_arg("side", sprintf(paste0(
      "is infeasible: points %s and %s are cannot-linked but joined by must-links ",
      "(%s); remove one of these constraints"),
      cop_point_names(x, a), cop_point_names(x, b), paste(res$path, collapse = " - ")))
  }
  pts <- res$blocked_points
  pairs <- sprintf("%d-%d", side$i[res$blocking], side$j[res$blocking])
  shown <- paste(utils::head(pairs, 5L), collapse = ", ")
  if (length(pairs) > 5L) shown <- sprintf("%s and %d more", shown, length(pairs) - 5L)
  stop_arg("side", sprintf(paste0(
    "cannot be satisfied in %s: no cluster is free of cannot-links for ",
    "%s %s (every cluster holds a point cannot-linked to %s: %s); use ",
    "`infeasible = \"nearest\"`, more clusters (`k`), more `restarts`, or a method with soft ",
    "constraints such as lcvqe()"),
    if (restarts == 1L) "its only run" else sprintf("all %d runs", restarts),
    if (length(pts) == 1L) "point" else "the must-linked points",
    cop_point_names(x, pts), if (length(pts) == 1L) "it" else "them",
    paste("cannot-links", shown)))
}

# Points as "<row>" or "<row> (\"<name>\")" when the row has its own name.
cop_point_names <- function(x, idx) {
  rows <- rownames(x)
  label <- as.character(idx)
  if (!is.null(rows)) {
    named <- rows[idx] != label
    label[named] <- sprintf("%d (\"%s\")", idx[named], rows[idx][named])
  }
  shown <- paste(utils::head(label, 10L), collapse = ", ")
  if (length(label) > 10L) shown <- sprintf("%s and %d more", shown, length(label) - 10L)
  shown
}
