# Side information on its way to the cores, and its agreement with a
# clustering. Shared by every method. The validated object itself crosses
# into C++ (side_from_r() in src/r_glue.h turns it into the core's SideInfo).

# Side information as pairs, for the methods that read only pairs: partial
# labels become every labelled pair (the one expansion, guarded by max_pairs).
side_as_pairs <- function(side, n, arg = "side", max_pairs = 1e6) {
  side <- as_side_info(side, n, arg)
  if (inherits(side, "sideclust_labels")) side <- expand_labels(side, max_pairs)
  side
}

# Partial labels, for the methods that take nothing else (NULL stays NULL).
side_as_labels <- function(labels, n, method, arg = "side") {
  side <- as_side_info(labels, n, arg)
  if (!is.null(side) && !inherits(side, "sideclust_labels")) {
    stop_arg(arg, "must be partial labels (a vector or factor with NA for unlabelled points); ",
             method, " does not take pairwise constraints")
  }
  side
}

# Counts (and total confidence) of kept and broken constraints of each type.
# Labels are summarized through the cluster x label table, without expanding
# the labelled pairs.
side_agreement_table <- function(side, cluster) {
  if (is.null(side)) return(NULL)
  rows <- c("must", "cannot")
  if (inherits(side, "sideclust_labels")) {
    keep <- !is.na(side$labels)
    cell <- n_pairs(table(cluster[keep], side$labels[keep]))
    same_label <- sum(n_pairs(tabulate(side$labels[keep])))
    same_cluster <- sum(n_pairs(table(cluster[keep])))
    total <- c(same_label, n_pairs(sum(keep)) - same_label)
    broken <- c(same_label - sum(cell), same_cluster - sum(cell))
    weight_total <- total
    weight_broken <- broken
  } else {
    same <- cluster[side$i] == cluster[side$j]
    bad <- side$must != same
    type <- factor(ifelse(side$must, "must", "cannot"), levels = rows)
    total <- as.double(table(type))
    broken <- as.double(table(type[bad]))
    weight_total <- as.double(tapply(side$confidence, type, sum, default = 0))
    weight_broken <- as.double(tapply(side$confidence[bad], type[bad], sum,
                                      default = 0))
  }
  data.frame(type = rows, total = total, satisfied = total - broken,
             violated = broken, weight = weight_total,
             weight_violated = weight_broken, row.names = NULL)
}

#' Constraints violated by a clustering
#'
#' Lists the must-links whose points fall in different clusters and the
#' cannot-links whose points share a cluster.
#'
#' @param object A fitted clustering (any list with a `cluster` element, such
#'   as a `sideclust` fit) or an integer vector of cluster memberships.
#' @param side Side information; by default the one the fit used. Partial
#'   labels are expanded into pairs for the listing (subject to `max_pairs`);
#'   [summary()] counts them without expansion.
#' @param max_pairs Largest number of labelled pairs to expand.
#' @return A data.frame with columns `i`, `j`, `type`, `confidence`,
#'   `cluster_i`, `cluster_j`, one row per violated constraint.
#' @examples
#' side <- constraints(must = rbind(c(1, 2), c(51, 52)),
#'                     cannot = rbind(c(1, 51), c(1, 3)), n = 150)
#' violations(as.integer(iris$Species), side)
#' @export
violations <- function(object, side = NULL, max_pairs = 1e6) {
  cluster <- if (is.list(object)) object$cluster else object
  if (is.null(cluster) || !is.numeric(cluster) && !is.factor(cluster)) {
    stop_arg("object", "must be a fitted clustering or a vector of cluster memberships")
  }
  if (is.null(side) && is.list(object)) side <- object$side
  if (is.null(side)) stop_arg("side", "is missing and the fit holds none")
  side <- side_as_pairs(side, length(cluster), "side", max_pairs)
  cluster <- as.integer(cluster)
  bad <- which(side$must != (cluster[side$i] == cluster[side$j]))
  data.frame(i = side$i[bad], j = side$j[bad],
             type = ifelse(side$must[bad], "must", "cannot"),
             confidence = side$confidence[bad],
             cluster_i = cluster[side$i[bad]], cluster_j = cluster[side$j[bad]])
}
