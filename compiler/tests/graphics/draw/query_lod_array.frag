#version 450
// textureQueryLod of a 2D array and a cube array: coordinates without the layer.
layout(set = 0, binding = 0) uniform sampler2DArray arr;
layout(set = 0, binding = 1) uniform samplerCubeArray cubes;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(textureQueryLod(arr, gl_FragCoord.xy), textureQueryLod(cubes, gl_FragCoord.xyx));
}
