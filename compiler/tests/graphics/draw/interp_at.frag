#version 450
// interpolateAtCentroid, interpolateAtSample and interpolateAtOffset of a smooth input.
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(interpolateAtCentroid(color).x, interpolateAtSample(color, 0).y,
             interpolateAtOffset(color, vec2(0.25, -0.125)).z, color.x);
}
