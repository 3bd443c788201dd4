# The cost of the cluster predict() chose for each row (predict() returns the
# whole n x k cost matrix).
chosen_cost <- function(pr) unname(pr$cost[cbind(seq_along(pr$cluster), pr$cluster)])
