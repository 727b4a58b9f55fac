import FoundationEssentials
import SystemInterop

extension ResultRule {
    /// Parses the `result` key's value.
    public init?(configText text: String) {
        switch text {
        case "redirect": self = .redirect
        case "location": self = .location
        case "body": self = .body
        default:
            if text.hasPrefix("json:/") || text == "json:" {
                self = .json(pointer: String(text.dropFirst(5)))
            } else if text.hasPrefix("regex:"), text.count > 6 {
                self = .regex(String(text.dropFirst(6)))
            } else {
                return nil
            }
        }
    }

    /// The config spelling of the rule (a template without one shows as `<template>`).
    public var configText: String {
        switch self {
        case .redirect: "redirect"
        case .location: "location"
        case .body: "body"
        case .json(let pointer): "json:" + pointer
        case .regex(let pattern): "regex:" + pattern
        case .template(let template): (try? template.configText()) ?? "<template>"
        }
    }
}
