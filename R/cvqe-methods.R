# S3 methods of cvqe() fits.

method_label.cvqe <- function(object) "CVQE"

#' Assign new points to the prototypes of a CVQE fit
#'
#' New points carry no constraints, so each goes to the nearest prototype
#' (squared Euclidean distance).
#'
#' @param object A fit from [cvqe()].
#' @param newdata Data with the same columns as the data that was clustered;
#'   by default the fitted data.
#'   Matched to the fitted columns by name, see [predict-newdata].
#' @param ... Unused.
#' @return A list with `cluster` (integer) and `cost` (the `n` x `k` squared
#'   distances to the prototypes), as [predict.rdp_means()] returns.
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' fit <- cvqe(x[-(1:10), ], k = 3, restarts = 3)
#' predict(fit, x[1:10, ])$cluster
#' @export
predict.cvqe <- function(object, newdata, ...) {
  predict_nearest_centre(object, prediction_data(object, newdata))
}
