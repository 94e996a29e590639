"use client";

import "@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css";
import L from "leaflet";
// Geoman adds itself to the global L that Leaflet sets: imported after Leaflet, on purpose.
import "@geoman-io/leaflet-geoman-free";

// Geoman, loaded only for users who may draw and before their map is created, since it hooks into
// the maps and layers Leaflet makes afterwards.

// Geoman only takes the layers that ask for it (pmIgnore: false): the pins' thousands of canvas
// markers stay plain Leaflet layers.
L.PM.setOptIn(true);
