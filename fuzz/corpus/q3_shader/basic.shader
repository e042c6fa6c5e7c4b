// a sky, a fog, a lit wall
textures/skies/s
{
	qer_editorimage textures/skies/s.jpg
	surfaceparm noimpact
	surfaceparm nolightmap
	surfaceparm sky
	q3map_sun 1 .9 .8 120 45 60
	q3map_surfacelight 80
	skyparms env/s - -
	{ map textures/skies/clouds.tga tcMod scroll 0.05 0.05 tcMod scale 3 2 blendFunc add }
}
textures/fog/f { surfaceparm fog surfaceparm nonsolid fogparms ( .5 .5 .5 ) 300 }
textures/base/wall{
	{ map $lightmap rgbGen identity }
	{ map textures/base/wall.tga blendFunc filter }
	{ animMap 4 a.tga b.tga alphaFunc GE128 depthWrite rgbGen wave sin 0 1 0 1 }
	/* block */ deformVertexes wave 100 sin 0 2 0 .5
	"base" { map "q.tga" }
}
