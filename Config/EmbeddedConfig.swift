// The files of this folder compiled into the binaries, so that traitd runs with no file at all.
// SwiftPM's `.embedInCode` (see Package.swift) generates `PackageResources`; this file names its contents.
// Adding a device profile or a layout: put the file in devices/ or layouts/, list it in Package.swift and below.

public enum DefaultConfig {
    /// `traitd.yaml`, the embedded default configuration.
    public static var configuration: EmbeddedFile {
        EmbeddedFile(name: "traitd.yaml", bytes: PackageResources.traitd_yaml)
    }

    /// The D-Bus introspection XML that the daemon serves and `make install` installs.
    public static var introspectionXML: String {
        String(decoding: PackageResources.org_traitd_Layout1_xml, as: UTF8.self)
    }

    /// The layout files of Config/layouts/, which the adapter host (traitd-adapters) loads before any directory.
    public static var layouts: [EmbeddedFile] {
        [
            EmbeddedFile(name: "layouts/support-panel.layout", bytes: PackageResources.support_panel_layout),
            EmbeddedFile(name: "layouts/xy-slider.layout", bytes: PackageResources.xy_slider_layout),
        ]
    }

    /// The built-in device profiles, one file a model.
    public static var deviceProfiles: [EmbeddedFile] {
        [
            EmbeddedFile(name: "devices/ipad-9.7.yaml", bytes: PackageResources.ipad_9_7_yaml),
            EmbeddedFile(name: "devices/ipad-10.2.yaml", bytes: PackageResources.ipad_10_2_yaml),
            EmbeddedFile(name: "devices/ipad-pro-10.5.yaml", bytes: PackageResources.ipad_pro_10_5_yaml),
            EmbeddedFile(name: "devices/ipad-pro-11.yaml", bytes: PackageResources.ipad_pro_11_yaml),
            EmbeddedFile(name: "devices/ipad-air-10.9.yaml", bytes: PackageResources.ipad_air_10_9_yaml),
            EmbeddedFile(name: "devices/ipad-pro-12.9.yaml", bytes: PackageResources.ipad_pro_12_9_yaml),
            EmbeddedFile(name: "devices/ipad-mini-6.yaml", bytes: PackageResources.ipad_mini_6_yaml),
            EmbeddedFile(name: "devices/iphone-se-1.yaml", bytes: PackageResources.iphone_se_1_yaml),
            EmbeddedFile(name: "devices/iphone-8.yaml", bytes: PackageResources.iphone_8_yaml),
            EmbeddedFile(name: "devices/iphone-8-plus.yaml", bytes: PackageResources.iphone_8_plus_yaml),
            EmbeddedFile(name: "devices/iphone-x.yaml", bytes: PackageResources.iphone_x_yaml),
            EmbeddedFile(name: "devices/iphone-xr.yaml", bytes: PackageResources.iphone_xr_yaml),
            EmbeddedFile(name: "devices/iphone-xs-max.yaml", bytes: PackageResources.iphone_xs_max_yaml),
            EmbeddedFile(name: "devices/iphone-12.yaml", bytes: PackageResources.iphone_12_yaml),
            EmbeddedFile(name: "devices/iphone-13-mini.yaml", bytes: PackageResources.iphone_13_mini_yaml),
            EmbeddedFile(name: "devices/iphone-12-pro-max.yaml", bytes: PackageResources.iphone_12_pro_max_yaml),
            EmbeddedFile(name: "devices/iphone-14.yaml", bytes: PackageResources.iphone_14_yaml),
            EmbeddedFile(name: "devices/iphone-14-plus.yaml", bytes: PackageResources.iphone_14_plus_yaml),
            EmbeddedFile(name: "devices/iphone-15.yaml", bytes: PackageResources.iphone_15_yaml),
            EmbeddedFile(name: "devices/iphone-15-pro-max.yaml", bytes: PackageResources.iphone_15_pro_max_yaml),
            EmbeddedFile(name: "devices/iphone-16-pro.yaml", bytes: PackageResources.iphone_16_pro_yaml),
            EmbeddedFile(name: "devices/iphone-16-pro-max.yaml", bytes: PackageResources.iphone_16_pro_max_yaml),
            EmbeddedFile(name: "devices/iphone-17-pro.yaml", bytes: PackageResources.iphone_17_pro_yaml),
            EmbeddedFile(name: "devices/iphone-17-pro-max.yaml", bytes: PackageResources.iphone_17_pro_max_yaml),
            EmbeddedFile(name: "devices/iphone-air.yaml", bytes: PackageResources.iphone_air_yaml),
            EmbeddedFile(name: "devices/ipad-pro-11-m4.yaml", bytes: PackageResources.ipad_pro_11_m4_yaml),
            EmbeddedFile(name: "devices/ipad-pro-13-m4.yaml", bytes: PackageResources.ipad_pro_13_m4_yaml),
            EmbeddedFile(name: "devices/ipad-11.yaml", bytes: PackageResources.ipad_11_yaml),
            EmbeddedFile(name: "devices/ipad-air-13.yaml", bytes: PackageResources.ipad_air_13_yaml),
            EmbeddedFile(name: "devices/ipad-mini-7.yaml", bytes: PackageResources.ipad_mini_7_yaml),
        ]
    }
}

/// One embedded file: the name it has under Config/ (used in error messages as `<embedded>/NAME`) and its text.
public struct EmbeddedFile: Sendable {
    public let name: String
    public let text: String

    init(name: String, bytes: [UInt8]) {
        self.name = name
        self.text = String(decoding: bytes, as: UTF8.self)
    }
}
