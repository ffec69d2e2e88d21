import Testing

@testable import DashboardFeature
