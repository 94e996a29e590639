import type { MetadataRoute } from "next";

/** The web app manifest: the field app installs to the home screen and opens on the map. */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "FieldCRM",
    short_name: "FieldCRM",
    description: "Leads, customers, service plans, jobs and map pins for field-service companies.",
    id: "/map",
    start_url: "/map",
    scope: "/",
    display: "standalone",
    background_color: "#f8fafc",
    theme_color: "#1f5bc4",
    icons: [{ src: "/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" }],
  };
}
